"""The product's SQLite backend (kanagame/db/sqlite3/base.py): Django's, with each statement's
``%s`` → ``?`` conversion kept per text. It must convert exactly as Django does."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.backends.sqlite3.base import SQLiteCursorWrapper as DjangoCursor
from hypothesis import given
from hypothesis import strategies as st

from kanagame.db.sqlite3.base import CONVERTED_KEPT, SQLiteCursorWrapper, format_to_qmark

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite backend (the embedded default)"
)


def django_converts(query: str, param_names=None) -> str:
    """What Django's own cursor makes of ``query`` (its method reads no cursor state)."""
    return DjangoCursor.convert_query(None, query, param_names=param_names)


@pytest.mark.parametrize(
    "query",
    [
        "SELECT 1",
        "SELECT * FROM t WHERE a = %s AND b = %s",
        "SELECT '%%s', %s",  # a literal "%s", escaped
        "UPDATE t SET x = %s WHERE y LIKE '%%a%%'",
        "SELECT '?' , %s",
        "",
    ],
)
def test_the_conversion_is_djangos(query):
    assert format_to_qmark(query) == django_converts(query)


@given(st.text(alphabet="%s?' ()xa,", max_size=40))
def test_any_text_is_converted_as_django_converts_it(query):
    assert format_to_qmark(query) == django_converts(query)


@pytest.mark.django_db
def test_named_parameters_still_go_through_django():
    query = "SELECT %(a)s, %(b)s"
    with connection.cursor() as cursor:
        converted = cursor.cursor.convert_query(query, param_names=["a", "b"])
    assert converted == django_converts(query, ["a", "b"]) == "SELECT :a, :b"


def test_the_conversions_kept_are_bounded():
    format_to_qmark.cache_clear()
    for n in range(CONVERTED_KEPT + 50):
        format_to_qmark(f"SELECT %s + {n}")
    assert format_to_qmark.cache_info().currsize == CONVERTED_KEPT


@pytest.mark.django_db
def test_the_connection_uses_this_cursor_and_its_results_are_sqlites():
    with connection.cursor() as cursor:
        assert isinstance(cursor.cursor, SQLiteCursorWrapper)
        cursor.execute("SELECT %s, %s, '%%s'", [1, "a"])
        assert cursor.fetchone() == (1, "a", "%s")
        cursor.execute("CREATE TEMP TABLE kg_backend_t (a integer, b text)")
        cursor.executemany("INSERT INTO kg_backend_t VALUES (%s, %s)", [(1, "x"), (2, "%s")])
        cursor.execute("SELECT a, b FROM kg_backend_t WHERE b = %s", ["%s"])
        assert cursor.fetchall() == [(2, "%s")]
        cursor.execute("SELECT %(n)s", {"n": 7})
        assert cursor.fetchone() == (7,)
