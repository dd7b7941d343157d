"""The board page of a table (work in progress: full board lands next)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from games.models import Table


def table_page(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code.upper())
    return HttpResponse(f"Table {table.code}", content_type="text/plain")
