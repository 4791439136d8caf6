"""Lappu settings: one module, read from the environment.

Nothing configured means a developer's machine: SQLite, eager Celery, local-memory cache.
Set DATABASE_URL / REDIS_URL for PostgreSQL and Redis; DEBUG=0 with SECRET_KEY and
ALLOWED_HOSTS for production (see docs/install.md, "Production settings").
"""

from __future__ import annotations

import datetime
from pathlib import Path

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from clubsite.env import (
    env_addresses,
    env_bool,
    env_int,
    env_list,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)
_DEV_KEY = "dev-only-insecure-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY", _DEV_KEY if DEBUG else None)
if not DEBUG and SECRET_KEY.strip() in {"", _DEV_KEY}:
    # An empty `SECRET_KEY=` line in .env passed `check` and then answered 500 to everything.
    raise ImproperlyConfigured("Set SECRET_KEY: production needs a long random key of its own.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])

INSTALLED_APPS = [
    # Before staticfiles: runserver then leaves static files to WhiteNoise, as production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_filters",
    "axes",
    "csp",
    # Sign-up and e-mail verification only (accounts/urls.py names the few pages used);
    # signing in, out and passwords stay Django's own views, watched by axes.
    "allauth",
    "allauth.account",
    "core",
    "accounts",
    "tournaments",
    "scoring",
    "formats",
    "standings",
    "ratings",
    "records",
    "leagues",
    "printing",
    "privacy",
    "demo",
]

MIDDLEWARE = [
    # First: a load balancer's or Docker's probe is answered before anything checks the host,
    # redirects to HTTPS, opens a session or counts a rate (see core.health).
    "core.health.HealthCheckMiddleware",
    # Outside every layer that can answer early (a refused host, a NUL byte, a lockout): a
    # page of the site's own, a 400 included, is never framed by another site.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A phone's table poll that finds nothing new (most of what a hall's night serves) is
    # answered from one cache read before sessions, CSRF, locale and the rest; after the
    # frame and security headers every answer carries (a 304 has no content for a policy).
    "scoring.polls.TablePollMiddleware",
    "csp.middleware.CSPMiddleware",
    # Static files are served by WhiteNoise in development too (from the source folders,
    # reloaded on change), so both serve them with the same headers.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the NUL guard, so its 400 page is in the visitor's language (it reads only the
    # language cookie and header, neither of which reaches a query).
    "django.middleware.locale.LocaleMiddleware",
    # Before anything else reads a value (the session its cookie, axes the user agent): a
    # NUL byte is refused here, once, for every page.
    "core.middleware.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in person's stored language beats the cookie.
    "tournaments.middleware.UserLanguageMiddleware",
    # A visitor who named none of the site's languages reads a club's pages and table links
    # in the club's language (decided before the view, from the shared cache).
    "tournaments.middleware.ClubLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubsite.urls"
# A form the CSRF check refuses gets the site's own page (translated), not Django's.
CSRF_FAILURE_VIEW = "core.views.csrf_failure"
WSGI_APPLICATION = "clubsite.wsgi.application"
ASGI_APPLICATION = "clubsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # clubsite is no installed app: its tags (the help's "?") are named here.
            "libraries": {"help_tags": "clubsite.templatetags.help_tags"},
        },
    },
]

DATABASES = {
    # An empty DATABASE_URL counts as unset, like every other variable here.
    "default": parse_database_url(
        env_str("DATABASE_URL", "") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First, so a locked-out person is refused before the password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Sign-in throttling: five wrong passwords for one user name from one address lock that pair
# out for 15 minutes; the attempts and lockouts are listed in the admin (django-axes).
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# How many proxies in front set X-Forwarded-For (compose's one: 1). The sign-in throttle and
# every rate limit read the client's address through them; left at 0 behind a proxy, every
# visitor counts as the proxy's one address and ten strangers switch a form off for all.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", env_int("AXES_PROXY_COUNT", 0))
AXES_IPWARE_PROXY_COUNT = RATE_LIMIT_PROXY_COUNT = TRUSTED_PROXY_COUNT
LOGIN_URL = "login"
# A reset link works for two hours, and only once: it dies when the password changes.
PASSWORD_RESET_TIMEOUT = 2 * 3600
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Sign-up (django-allauth): a user name, an e-mail address and a password; the account can
# sign in only once the address is verified (the link in the mail). Its mails go through
# Celery, in the person's language (accounts.adapter). No social accounts.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # a mail scanner opening the link must not verify it
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_SIGNUP_REDIRECT_URL = "home"
# allauth's own limits (per client address as accounts.adapter reads it, behind proxies
# too), on top of the site's `signup` scope in core.ratelimit on the sign-up POST.
ACCOUNT_RATE_LIMITS = {"signup": "20/m/ip", "confirm_email": "1/3m/key"}

# English is the source language; Finnish and Hungarian are translated in locale/.
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "en")
LANGUAGES = [("en", _("English")), ("fi", _("Finnish")), ("hu", _("Hungarian"))]
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise ImproperlyConfigured(f"LANGUAGE_CODE={LANGUAGE_CODE!r}: use one of en, fi, hu.")
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates and times the European way (clubsite/formats/en); Finnish and Hungarian
# keep Django's own, already day-first and 24-hour.
FORMAT_MODULE_PATH = ["clubsite.formats"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Helsinki")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# Development reads the source folders on every request; production only what collectstatic
# wrote (hashed names, compressed copies, cached for a year).
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG
# Files the site makes (printed sheets of print jobs); served to directors through a view
# that checks who asks, never as public media.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
MEDIA_URL = "media/"
# The site's own address as players' phones reach it: printed QR codes and e-mailed links
# carry it (a sheet made by a worker has no request to take it from). Production must say
# it: a QR code pointing at 127.0.0.1 would only be found out at the card table.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000" if DEBUG else None).rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r}: write it as https://host[:port].")
# The printed sheets' paper: "A4" (portrait) or "Letter".
# How long a finished print job's file is kept before the daily clean-up deletes it.
PRINT_FILES_KEEP_DAYS = env_int("PRINT_FILES_KEEP_DAYS", 30)
# Sign-in records (django-axes: failed tries, lockouts) older than this are deleted nightly
# (core.housekeeping); the privacy page says so.
SIGNIN_RECORDS_KEEP_DAYS = env_int("SIGNIN_RECORDS_KEEP_DAYS", 90)
PRINT_PAPER = env_str("PRINT_PAPER", "A4")
if PRINT_PAPER not in ("A4", "Letter"):
    raise ImproperlyConfigured(f"PRINT_PAPER must be A4 or Letter, not {PRINT_PAPER!r}")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "core.cache.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that hangs must fail fast: the rate limits then step aside and pages
            # carry on, instead of every request waiting on it.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The public pages' versions and rendered parts (core.conditional, scoring.public_cache).
# Shared when it is Redis: every web process then answers from, and drops, the same
# entries. A cache of one process's own (no REDIS_URL) is checked against the database on
# every request, so several processes without Redis still never serve an old result.
PUBLIC_CACHE = "default"
PUBLIC_CACHE_SHARED = env_bool("PUBLIC_CACHE_SHARED", bool(REDIS_URL))
# With a shared cache, deals saved at the tables make a new public version of their event at
# most this often (seconds; 0: at every deal): the spectators' polls in between are 304s, and
# one request builds the new version while the others are served the one before.
PUBLIC_COALESCE_SECONDS = env_int("PUBLIC_COALESCE_SECONDS", 5)
# When at least this many connections wait for a gunicorn worker, the spectators' polls are
# answered at once with the copy they show (core.load), so the tables' saves behind them
# are reached sooner (0: never); they are asked to come back after SHED_RETRY_AFTER seconds.
# 96 is about half a second's work for two workers at a hall's mix of requests (mostly
# 304s); at 24 the 250-table rehearsal shed spectators at its realistic pace too.
SHED_QUEUE = env_int("SHED_QUEUE", 96)
SHED_RETRY_AFTER = env_int("SHED_RETRY_AFTER", 10)

# Celery: a real broker when REDIS_URL is set, otherwise tasks run inline (eager) so a
# developer has nothing else to start. Eager results are stored so progress pages work.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
# Inline jobs end as a worker's do: a failure is recorded and shown on the progress page, not
# raised into the request (which also made an autoretried job raise Retry after succeeding).
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_STORE_EAGER_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "lappu")
# What the scheduler (compose's `beat` service: `celery -A clubsite beat`) starts each night;
# the modules are named here because Celery's autodiscovery reads only `tasks` modules.
CELERY_IMPORTS = ("core.housekeeping", "printing.housekeeping")
CELERY_BEAT_SCHEDULE = {
    "sessions-clear": {"task": "core.sessions_clear", "schedule": crontab(hour=4, minute=10)},
    "signin-records-prune": {
        "task": "core.signin_records_prune",
        "schedule": crontab(hour=4, minute=15),
    },
    "print-files-prune": {
        "task": "printing.print_files_prune",
        "schedule": crontab(hour=4, minute=20),
    },
    # Players' mail an action could not queue (the queue was down when it committed).
    "notices-sweep": {"task": "tournaments.notices_sweep", "schedule": crontab(minute="*/5")},
}
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TASK_TRACK_STARTED = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A pool child that dies mid-job (killed, out of memory) puts its message back on the queue
# instead of marking the job failed; with acks_late the worker acknowledges only once done.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Jobs take seconds to a few minutes: stopped after 5 (soft) / 6 (hard) minutes. Redis gives
# an unacknowledged job to another worker after the visibility timeout, which must outlast
# the hard limit, or a long job would run twice at once.
CELERY_TASK_SOFT_TIME_LIMIT = 5 * 60
CELERY_TASK_TIME_LIMIT = 6 * 60
# When Redis is down, say so within about a second instead of retrying for 19 s (the
# result store's default): a director's print button waits on it. Short connect and read
# timeouts, and one quick retry for publishing a job. The result store gets no retry of its
# own: redis-py already tries each connection twice, and the store's retry on top made an
# unreachable (not refusing) Redis cost 3 s before the publish itself. A Redis on the same
# host or LAN connects in milliseconds. The worker's own reconnecting is unchanged.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
QUEUE_CONNECT_TIMEOUT = 0.5
CELERY_BROKER_CONNECTION_TIMEOUT = QUEUE_CONNECT_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 15 * 60,
    "socket_connect_timeout": QUEUE_CONNECT_TIMEOUT,
    "socket_timeout": 2.0,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = QUEUE_CONNECT_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = 2.0
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 0}}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# Every cookie the site sets is Secure in production; only a plain-HTTP trial (compose on
# localhost) turns that off. None of them is read by the page's scripts (the CSRF token
# reaches htmx through the page itself), so all are HttpOnly.
SECURE_COOKIES = not DEBUG and env_bool("SECURE_COOKIES", True)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# The table's device cookie (which phone claimed which seat) follows the session cookie.
DEVICE_COOKIE_SECURE = SECURE_COOKIES

# Content-Security-Policy: the site's pages load only their own files and run no inline
# script, so an injected <script> or onclick does nothing (django-csp).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# E-mail: password-reset links, and server errors to the operator. Written to the console
# (the log) unless EMAIL_HOST names an SMTP server; EMAIL_BACKEND picks any other backend.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
if EMAIL_USE_SSL and EMAIL_USE_TLS:
    raise ImproperlyConfigured("EMAIL_USE_SSL and EMAIL_USE_TLS: set one of them, not both.")
# A mail server that hangs must not hold a web worker for gunicorn's whole timeout.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Lappu <noreply@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = "[Lappu] "
# Who hears of a server error (with DEBUG=0 Django mails them its report):
# "Ann Operator <ann@club.example>, ops@club.example".
ADMINS = env_addresses("ADMINS", [])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # A worker logs each task's start and end itself; inline (eager) tasks would put a
    # "succeeded" line in the request's log for every deal saved. Failures still show.
    "loggers": {
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
        # WeasyPrint logs each step of every sheet at INFO; its warnings still show.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}
