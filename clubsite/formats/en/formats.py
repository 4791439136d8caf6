"""English as an EU club reads it: day, short month, year ("6 Dec 2026") and the 24-hour
clock ("15:14"), on every page and PDF. Django's own English is American ("12/06/2026",
"Dec. 6, 2026", "3:14 p.m."), which a Finnish or Hungarian club misreads. What is not set
here (input formats, separators) falls through to Django's English."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
FIRST_DAY_OF_WEEK = 1  # Monday
