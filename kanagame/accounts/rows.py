"""Rows read into models without the ORM's query compiler, for the hottest reads only.

Django builds and compiles a query on every call: on our 2-core server that is 0.3-0.8 ms of
CPU for a filter with a join or two, several times what SQLite or PostgreSQL need to answer it
(docs/bench.md, "Classroom load"). The few reads that every poll, board and move makes are
written once as SQL built from the models' own fields (``Columns``), and each row is turned
into the ORM's own model instances (``Model.from_db``) with the converters the compiler would
apply, so what comes out is what the equivalent queryset returns (tests/games/test_rows.py).
Everything else uses the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from weakref import WeakKeyDictionary

from django.db import connection, connections
from django.db.models import Model

_CONVERTERS: WeakKeyDictionary = WeakKeyDictionary()


class Columns:
    """The concrete columns of ``model`` under the SQL alias ``alias``: all of them (to build
    instances), or ``only`` those named (to read their values)."""

    def __init__(self, model: type[Model], alias: str, only: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        fields = model._meta.concrete_fields
        self.fields = [model._meta.get_field(name) for name in only] if only else list(fields)
        self.attnames = [field.attname for field in self.fields]
        self.pk_index = self.fields.index(model._meta.pk) if not only else None

    def sql(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def _converters(self) -> list[tuple[int, list, Any]]:
        """(position, converters, column) of the fields whose values need converting, as the
        compiler lists them for this database connection (computed once per connection)."""
        wrapper = connections[connection.alias]
        cached = _CONVERTERS.setdefault(wrapper, {})
        if self not in cached:
            found = []
            for position, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                converters = wrapper.ops.get_db_converters(column)
                converters += field.get_db_converters(wrapper)
                if converters:
                    found.append((position, converters, column))
            cached[self] = found
        return cached[self]

    def convert(self, values: Sequence[Any]) -> list[Any]:
        """``values`` (this model's slice of a row) as the ORM returns them."""
        values = list(values)
        for position, converters, column in self._converters():
            value = values[position]
            for converter in converters:
                value = converter(value, column, connection)
            values[position] = value
        return values

    def build(self, values: Sequence[Any]) -> Model | None:
        """The model instance of ``values`` (this model's slice of a row, every column); None
        for the NULLs of an outer join that matched nothing."""
        if values[self.pk_index] is None:
            return None
        return self.model.from_db(connection.alias, self.attnames, self.convert(values))

    def param(self, name: str, value: Any) -> Any:
        """``value`` as a query parameter compared with the field ``name``."""
        return self.model._meta.get_field(name).get_db_prep_value(value, connection)


def sql_once(build: Callable[[], str]) -> Callable[[], str]:
    """``build()`` (a statement made of quoted names) computed once per database vendor."""
    built: dict[str, str] = {}

    def statement() -> str:
        vendor = connection.vendor
        if vendor not in built:
            built[vendor] = build()
        return built[vendor]

    return statement


def fetch(sql: str, params: Sequence[Any], columns: Sequence[Columns]) -> list[list]:
    """Run ``sql`` (selecting ``columns`` in order): per row, an instance per ``Columns`` of
    every column, the converted values of a ``Columns`` of ``only`` some."""
    built = []
    for row in fetch_raw(sql, params):
        built.append(
            [
                group.build(part) if group.pk_index is not None else group.convert(part)
                for group, part in zip(columns, split(row, columns), strict=True)
            ]
        )
    return built


def fetch_raw(sql: str, params: Sequence[Any]) -> list[tuple]:
    """The rows of ``sql`` as the database driver returns them (see ``split``)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def split(row: Sequence[Any], columns: Sequence[Columns]) -> list[Sequence[Any]]:
    """``row`` cut into each ``Columns``' slice, in order."""
    parts, start = [], 0
    for group in columns:
        parts.append(row[start : start + len(group)])
        start += len(group)
    return parts


def table_name(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[Model], name: str) -> str:
    """The quoted column of the field ``name`` of ``model``."""
    return connection.ops.quote_name(model._meta.get_field(name).column)


# --- writes -------------------------------------------------------------------------------


class _Preparer:
    """``field.get_db_prep_save(value, connection)``, computed once per field and value for
    one statement: the rows of a move or a learning write repeat most of their values (the
    learner, the table, the time, the kind), and preparing a value costs more than looking it
    up. Values of another type (``True`` and ``1``) are told apart; unhashable ones (a JSON
    field's dict) are prepared each time."""

    def __init__(self) -> None:
        self.done: dict = {}

    def __call__(self, field: Any, value: Any) -> Any:
        key = (field.attname, type(value), value)
        try:
            return self.done[key]
        except KeyError:
            prepared = self.done[key] = field.get_db_prep_save(value, connection)
            return prepared
        except TypeError:  # unhashable
            return field.get_db_prep_save(value, connection)


def insert(objs: Sequence[Model]) -> None:
    """``bulk_create(objs)`` in one INSERT without the ORM's compiler: every column but the
    key, each value prepared by its field (``pre_save`` first, so ``auto_now_add`` fills in),
    and the new keys set on ``objs`` (``RETURNING``, which SQLite and PostgreSQL both read).
    Raises the ORM's ``IntegrityError`` on a constraint violation."""
    sql, params = _insert_objs_sql(objs)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        _keys_set(objs, [row[0] for row in cursor.fetchall()])


def _insert_objs_sql(objs: Sequence[Model]) -> tuple[str, list]:
    """The ``INSERT ... RETURNING <key>`` of ``insert``."""
    model = type(objs[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    params: list = []
    prepare = _Preparer()
    for obj in objs:
        params += [prepare(f, f.pre_save(obj, add=True)) for f in fields]
    quote = connection.ops.quote_name
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {table_name(model)} ({', '.join(quote(f.column) for f in fields)}) "
        f"VALUES {', '.join([placeholders] * len(objs))} "
        f"RETURNING {quote(model._meta.pk.column)}"
    )
    return sql, params


def _keys_set(objs: Sequence[Model], keys: list) -> None:
    for obj, key in zip(objs, keys, strict=True):
        obj.pk = key
        obj._state.adding = False
        obj._state.db = connection.alias


def insert_sql(model: type[Model], rows: list[dict]) -> tuple[str, list]:
    """``INSERT INTO <model's table> (every column but the key) VALUES (...), ...`` for
    ``rows`` (attribute name -> value, the same names in every row; the other fields take
    their defaults), each value prepared by its field as ``bulk_create`` would, without
    building model instances (the learning hook writes such rows on every move). Fields the
    ORM would fill at save time (``auto_now``) must be given."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    given = set(rows[0])  # every row names the same fields
    # the other fields' defaults, prepared once for all rows
    prepared = {
        f.attname: f.get_db_prep_save(f.get_default(), connection)
        for f in fields
        if f.attname not in given
    }
    params: list = []
    prepare = _Preparer()
    for row in rows:
        params += [
            prepared[f.attname] if f.attname in prepared else prepare(f, row[f.attname])
            for f in fields
        ]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "
    return sql + ", ".join([placeholders] * len(rows)), params


def update(model: type[Model], values: dict[str, Any], where: dict[str, Any]) -> int:
    """``model.objects.filter(**where).update(**values)`` for plain equality filters, without
    the ORM's compiler; returns the number of rows changed (the guard of a conditional write).
    """
    sql, params = _update_sql(model, values, where)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _update_sql(
    model: type[Model], values: dict[str, Any], where: dict[str, Any]
) -> tuple[str, list]:
    meta, quote = model._meta, connection.ops.quote_name
    sets, params = [], []
    for name, value in values.items():
        field = meta.get_field(name)
        sets.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    conditions = []
    for name, value in where.items():
        field = meta.get_field(name)
        conditions.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_value(value, connection))
    sql = f"UPDATE {table_name(model)} SET {', '.join(sets)} WHERE {' AND '.join(conditions)}"
    return sql, params


def update_then_insert(
    model: type[Model], values: dict[str, Any], where: dict[str, Any], objs: Sequence[Model]
) -> bool:
    """A guarded write: ``update(model, values, where)``, and only if it changed exactly one
    row, ``insert(objs)``; returns whether it did. Call it inside a transaction, and roll
    back when it returns False: on PostgreSQL both go in one statement (the UPDATE as a data-
    modifying ``WITH`` clause, its row count read by the INSERT's ``RETURNING``), so the
    INSERT has run even when the guard failed. Raises the ORM's ``IntegrityError`` as
    ``insert`` does (a unique ``(table, version)`` taken by a concurrent writer)."""
    if connection.vendor != "postgresql":
        if update(model, values, where) != 1:
            return False
        insert(objs)
        return True
    update_sql, update_params = _update_sql(model, values, where)
    insert_sql_, insert_params = _insert_objs_sql(objs)
    sql = (
        f"WITH guarded AS ({update_sql} RETURNING 1) {insert_sql_}, (SELECT count(*) FROM guarded)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, update_params + insert_params)
        rows = cursor.fetchall()
    if not rows or rows[0][1] != 1:
        return False
    _keys_set(objs, [row[0] for row in rows])
    return True
