"""The lobby (/play/): open tables to join, my tables, join by code, create a table."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.forms import TableCreateForm
from games.selectors import (
    classrooms_of,
    table_access,
    tables_of,
    tables_open_for,
    tables_watchable_by,
)
from games.services.tables import TableError, table_create, table_join
from games.views.common import TableInfo, engine_blurb, engine_name, engines_offered
from games.views.errors import PageError, refusal, table_errors
from games.views.lookup import table_lookup
from kanagame.classes.selectors import class_names as classes_named


def _games() -> list[dict]:
    return [
        {"engine": name, "name": engine_name(name), "blurb": engine_blurb(name)}
        for name in engines_offered()
    ]


def _rows(tables, user) -> list[dict]:
    tables = list(tables)
    class_ids = {table.classroom_id for table in tables if table.classroom_id is not None}
    class_names = classes_named(classroom_ids=class_ids)
    rows = []
    for table in tables:
        seats = list(table.seats.select_related("user__profile").order_by("index"))
        rows.append(
            {
                "info": TableInfo.of(table, class_names),
                "players": [
                    s.user.profile.name
                    if s.is_human and hasattr(s.user, "profile")
                    else (_("CPU") if s.is_bot else _("open"))
                    for s in seats
                ],
                "open_seats": sum(1 for s in seats if s.is_open),
                "mine": any(s.user_id == user.pk for s in seats),
            }
        )
    return rows


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "games": _games(),
        "open_tables": _rows(tables_open_for(user=user), user),
        "my_tables": _rows(tables_of(user=user), user),
        "watchable": _rows(tables_watchable_by(user=user), user),
    }
    return render(request, "games/lobby.html", context)


@login_required
@table_errors
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest, engine: str) -> HttpResponse:
    if engine not in engines_offered():
        raise PageError(_("There is no such game."), 404)
    form = TableCreateForm(
        request.POST if request.method == "POST" else None,  # an empty POST is still bound
        engine=engine,
        classrooms=classrooms_of(user=request.user),
        prefix="t",
    )
    if request.method == "POST" and form.is_valid():
        try:
            table = table_create(
                user=request.user,
                engine=engine,
                options=form.cleaned_options,
                seats=form.seats_for(request.user),
                classroom=form.classroom(),
                ranked=form.is_ranked,
            )
        except (ValueError, TableError) as exc:
            form.add_error(None, getattr(exc, "message", str(exc)))
        else:
            return redirect(table.get_absolute_url())
    status = 400 if request.method == "POST" else 200
    context = {
        "form": form,
        "engine": engine,
        "engine_name": engine_name(engine),
    }
    return render(request, "games/table_new.html", context, status=status)


@login_required
@table_errors
@require_POST
def join_by_code(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("code", "").strip().upper()
    table = table_lookup(code, request) if code else None
    if table is None:
        messages.error(request, _("No table has the code “%(code)s”.") % {"code": code[:12]})
        return redirect("games:lobby")
    access = table_access(table=table, user=request.user)
    if access.seat is not None or access.can_watch:
        return redirect(table.get_absolute_url())
    if not access.can_join:
        raise refusal(request.user, table, joining=True)
    table_join(table=table, user=request.user)
    return redirect(table.get_absolute_url())
