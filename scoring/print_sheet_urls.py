from __future__ import annotations

from django.urls import URLPattern, path

from scoring import print_sheet_views

table = "clubs/<slug:slug>/events/<int:event_id>/tables/<int:table_id>/"

urlpatterns: list[URLPattern] = [
    path(table + "sheet.pdf", print_sheet_views.table_sheet_pdf, name="print_table_sheet"),
    path(table + "result.pdf", print_sheet_views.table_result_pdf, name="print_table_result"),
]
