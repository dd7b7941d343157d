"""Issue #23, the web layer: one way to answer refusals, no private imports, no view writes.

- every game page is wrapped in ``games.views.errors.table_errors`` (refusals raised by the
  view or its services become the error page with their status);
- no module of the web layer imports another module's private name (``_error_page``,
  ``_table``...): what views share is public (``games.views.errors``, ``games.views.lookup``);
- no view writes a model itself (``.save()``, ``.delete()``, ``objects.create()``, a
  queryset's ``update()``...): it calls a service (ARCHITECTURE §1).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.urls import URLPattern, get_resolver

ROOT = Path(__file__).resolve().parent.parent
VIEW_FILES = sorted(
    [
        *ROOT.glob("games/views/*.py"),
        *ROOT.glob("learning/views/*.py"),
        *ROOT.glob("learning/classroom/views/**/*.py"),
        ROOT / "kanagame/views.py",
        ROOT / "kanagame/accounts/views.py",
    ]
)
WEB_FILES = VIEW_FILES + sorted(ROOT.glob("games/boards/*.py"))
PRODUCT = ("games", "learning", "kanagame")
# methods that write a row when called on a model instance, a manager or a queryset
WRITES = {"save", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
QUERYSET = {"objects", "filter", "exclude", "all", "select_for_update"}


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _views(patterns):
    for pattern in patterns:
        if isinstance(pattern, URLPattern):
            yield str(pattern.pattern), pattern.callback
        else:
            yield from _views(pattern.url_patterns)


def _maps_errors(view) -> bool:
    while view is not None:
        if getattr(view, "maps_table_errors", False):
            return True
        view = getattr(view, "__wrapped__", None)
    return False


def test_every_game_page_answers_refusals_through_table_errors():
    routes = [(route, view) for route, view in _views(get_resolver().url_patterns)]
    games = [(r, v) for r, v in routes if v.__module__.startswith("games.views")]
    assert len(games) >= 12
    unwrapped = [r for r, v in games if r != "play/" and not _maps_errors(v)]
    assert not unwrapped, f"game pages answering refusals by hand: {unwrapped}"


@pytest.mark.parametrize("path", WEB_FILES, ids=_rel)
def test_no_web_module_imports_a_private_name(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PRODUCT)
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert not private, f"{_rel(path)} imports private names: {private}"


def _writes(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, target = node.func.attr, node.func.value
        on_queryset = (
            isinstance(target, ast.Call)
            and isinstance(target.func, ast.Attribute)
            and target.func.attr in QUERYSET
        ) or (isinstance(target, ast.Attribute) and target.attr == "objects")
        if name in WRITES and not (name == "delete" and _is_session_or_cache(target)):
            found.append(f"line {node.lineno}: .{name}()")
        elif name in ("create", "update") and on_queryset:
            found.append(f"line {node.lineno}: queryset .{name}()")
    return found


def _is_session_or_cache(target: ast.AST) -> bool:
    text = ast.unparse(target)
    return text.endswith(("session", "cache"))


@pytest.mark.parametrize("path", VIEW_FILES, ids=_rel)
def test_no_view_writes_a_model_itself(path):
    writes = _writes(ast.parse(path.read_text(encoding="utf-8")))
    assert not writes, f"{_rel(path)} writes models itself (call a service): {writes}"


def test_the_write_finder_finds_writes():
    source = """
def view(request, table):
    table.save(update_fields=["x"])
    Table.objects.create(code="x")
    Seat.objects.filter(pk=1).update(autoplay=False)
    table.seats.all().delete()
    context.update({"a": 1})
    request.session.delete()
"""
    assert _writes(ast.parse(source)) == [
        "line 3: .save()",
        "line 4: queryset .create()",
        "line 5: queryset .update()",
        "line 6: .delete()",
    ]


def _patterns(resolver, prefix=""):
    for pattern in resolver.url_patterns:
        text = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):
            yield from _patterns(pattern, text)
        else:
            yield text, pattern


def test_the_game_pages_come_first_and_no_other_url_starts_with_their_prefix():
    """kanagame/urls.py lists the game pages first (the hottest URLs resolve fastest): that
    changes no URL's view only while the game pages, and nothing else, start with "play/"."""
    from django.urls import get_resolver

    import games.urls

    resolver = get_resolver()
    first = resolver.url_patterns[0]
    assert getattr(first, "urlconf_module", None) is games.urls
    games_ids = {id(p) for p in games.urls.urlpatterns}
    every = list(_patterns(resolver))
    assert len(games_ids) == len(games.urls.urlpatterns) > 0
    for text, pattern in every:
        assert text.startswith("play/") == (id(pattern) in games_ids), text
