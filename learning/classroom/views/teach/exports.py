"""CSV exports, streamed: per-student per-kana progress, and assignment completion."""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterator

from django.http import HttpRequest, StreamingHttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from kanagame.accounts.permissions import teacher_required
from learning.classroom.selectors import (
    ASSIGNMENT_CSV_COLUMNS,
    PROGRESS_CSV_COLUMNS,
    class_assignment_rows,
    class_progress_rows,
)

from .common import own_classroom


class _Echo:
    def write(self, value: str) -> str:
        return value


# What makes Excel, LibreOffice or Google Sheets read a cell as a formula (OWASP "CSV
# injection"), after Unicode compatibility folding: full-width ＝＋－＠ and the small forms
# ﹦﹢﹣﹫ fold to = + - @; the minus sign U+2212 and "|" (DDE) are checked as they are.
FORMULA_STARTS = frozenset("=+-@|\u2212")
CONTROL_STARTS = ("\t", "\r", "\n")


def csv_safe(value):
    """Names are typed by students: never let a spreadsheet read one as a formula."""
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(CONTROL_STARTS):
        return "'" + value
    first = unicodedata.normalize("NFKC", value.lstrip()[:1])
    if first and first[0] in FORMULA_STARTS:
        return "'" + value
    return value


def _stream(columns: tuple[str, ...], rows: Iterator[tuple], filename: str):
    writer = csv.writer(_Echo())

    def lines():
        yield writer.writerow(columns)
        for row in rows:
            yield writer.writerow([csv_safe(value) for value in row])

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@teacher_required
@require_GET
def teach_export_progress(request: HttpRequest, class_id: int) -> StreamingHttpResponse:
    classroom = own_classroom(request, class_id)
    name = f"{slugify(classroom.name) or 'class'}-kana-progress.csv"
    return _stream(PROGRESS_CSV_COLUMNS, class_progress_rows(classroom=classroom), name)


@teacher_required
@require_GET
def teach_export_assignments(request: HttpRequest, class_id: int) -> StreamingHttpResponse:
    classroom = own_classroom(request, class_id)
    name = f"{slugify(classroom.name) or 'class'}-assignments.csv"
    return _stream(ASSIGNMENT_CSV_COLUMNS, class_assignment_rows(classroom=classroom), name)
