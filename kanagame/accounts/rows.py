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
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import DateField, Model, TimeField
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.signals import post_init, pre_init

_CONVERTERS: WeakKeyDictionary = WeakKeyDictionary()


def _db() -> Any:
    """The default database's connection for this thread (what ``django.db.connection``
    stands for), looked up once by each function here: every attribute read through that
    proxy looks the connection up again (an ``asgiref`` local), ~100 times a move before
    (docs/bench.md, "Session 23")."""
    return connections[DEFAULT_DB_ALIAS]


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
        # What ``Model.from_db`` does with every column (``Model.__init__``: the values set in
        # field order), without its generic path, for models that keep Django's own
        # ``__init__`` and ``from_db`` and whose columns are plain attributes: no descriptor
        # sets them but a foreign key's ``_id`` one, which on a new instance (nothing cached)
        # only stores the value (see ``build``).
        self.plain = (
            model.__init__ is Model.__init__
            and model.from_db.__func__ is Model.from_db.__func__
            and all(_stored_as_is(getattr(model, name, None)) for name in self.attnames)
        )

    def sql(self) -> str:
        quote = _db().ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def _converters(self) -> list[tuple[int, list, Any]]:
        """(position, converters, column) of the fields whose values need converting, as the
        compiler lists them for this database connection (computed once per connection)."""
        wrapper = _db()
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
        found = self._converters()
        if not found:
            return values
        wrapper = _db()
        for position, converters, column in found:
            value = values[position]
            for converter in converters:
                value = converter(value, column, wrapper)
            values[position] = value
        return values

    def build(self, values: Sequence[Any]) -> Model | None:
        """The model instance of ``values`` (this model's slice of a row, every column); None
        for the NULLs of an outer join that matched nothing."""
        if values[self.pk_index] is None:
            return None
        if self.plain and not (pre_init.receivers or post_init.receivers):
            # ``from_db``'s instance (tests/games/test_rows.py), set up directly: no receiver
            # of ``pre_init`` / ``post_init`` is connected to be told
            instance = self.model.__new__(self.model)
            state = instance._state = ModelState()
            state.adding, state.db = False, DEFAULT_DB_ALIAS
            instance.__dict__.update(zip(self.attnames, self.convert(values), strict=True))
            return instance
        return self.model.from_db(DEFAULT_DB_ALIAS, self.attnames, self.convert(values))

    def param(self, name: str, value: Any) -> Any:
        """``value`` as a query parameter compared with the field ``name``."""
        return self.model._meta.get_field(name).get_db_prep_value(value, _db())


def _stored_as_is(attribute: Any) -> bool:
    """Whether setting a model's column attribute on a new instance only stores the value."""
    return not hasattr(attribute, "__set__") or type(attribute) is ForeignKeyDeferredAttribute


def sql_once(build: Callable[[], str]) -> Callable[[], str]:
    """``build()`` (a statement made of quoted names) computed once per database vendor."""
    built: dict[str, str] = {}

    def statement() -> str:
        vendor = _db().vendor
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
    with _db().cursor() as cursor:
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
    return _db().ops.quote_name(model._meta.db_table)


def column(model: type[Model], name: str) -> str:
    """The quoted column of the field ``name`` of ``model``."""
    return _db().ops.quote_name(model._meta.get_field(name).column)


# --- writes -------------------------------------------------------------------------------


# Prepared values of plain types, kept across statements: the learner, the table, the kind,
# the script and the kana ids come back on every move. Preparing such a value for a field of
# no date or time is a pure function of the field, the value's type and value, and the
# database (Django reads no setting for it); times follow the time zone settings and are
# prepared per statement. Bounded: emptied when full (docs/bench.md, "Counting instructions").
PREPARED_KEPT = 4096
_PLAIN = (str, int, bool, float, type(None))
_PREPARED: dict = {}


def _timeless(field: Any) -> bool:
    return not isinstance(field, DateField | TimeField)  # DateTimeField is a DateField


class _Preparer:
    """``field.get_db_prep_save(value, connection)``, computed once per field and value for
    one statement: the rows of a move or a learning write repeat most of their values (the
    learner, the table, the time, the kind), and preparing a value costs more than looking it
    up. Values of another type (``True`` and ``1``) are told apart; unhashable ones (a JSON
    field's dict) are prepared each time. Plain values of timeless fields are kept across
    statements too (``_PREPARED``)."""

    def __init__(self) -> None:
        self.done: dict = {}
        self.db = _db()

    def __call__(self, field: Any, value: Any) -> Any:
        kind = type(value)
        key = (field.attname, kind, value)
        try:
            return self.done[key]
        except KeyError:
            pass
        except TypeError:  # unhashable
            return field.get_db_prep_save(value, self.db)
        if kind in _PLAIN and _timeless(field):
            kept = (field, kind, value, self.db.alias)
            prepared = _PREPARED.get(kept, _PREPARED)
            if prepared is _PREPARED:
                if len(_PREPARED) >= PREPARED_KEPT:
                    _PREPARED.clear()
                prepared = _PREPARED[kept] = field.get_db_prep_save(value, self.db)
        else:
            prepared = field.get_db_prep_save(value, self.db)
        self.done[key] = prepared
        return prepared


def insert(objs: Sequence[Model]) -> None:
    """``bulk_create(objs)`` in one INSERT without the ORM's compiler: every column but the
    key, each value prepared by its field (``pre_save`` first, so ``auto_now_add`` fills in),
    and the new keys set on ``objs`` (``RETURNING``, which SQLite and PostgreSQL both read).
    Raises the ORM's ``IntegrityError`` on a constraint violation."""
    sql, params = _insert_objs_sql(objs)
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        _keys_set(objs, [row[0] for row in cursor.fetchall()])


def insert_many(objs: Sequence[Model]) -> None:
    """``bulk_create(objs)`` for many rows whose new keys the caller does not need: one
    single-row INSERT of every column but the key, run once per object by the driver's
    ``executemany`` (the statement built once, where ``bulk_create`` compiles one per batch of
    the database's variable limit: 55 rows on SQLite for an event), each value prepared by its
    field as in ``insert``. Keys are not set on ``objs``."""
    if not objs:
        return
    fields, head = _insert_head(type(objs[0]))
    prepare = _Preparer()
    params = [[prepare(f, f.pre_save(obj, add=True)) for f in fields] for obj in objs]
    sql = f"{head} VALUES ({', '.join(['%s'] * len(fields))})"
    with _db().cursor() as cursor:
        cursor.executemany(sql, params)


def _insert_objs_sql(objs: Sequence[Model]) -> tuple[str, list]:
    """The ``INSERT ... RETURNING <key>`` of ``insert``."""
    model = type(objs[0])
    fields, head = _insert_head(model)
    params: list = []
    prepare = _Preparer()
    for obj in objs:
        params += [prepare(f, f.pre_save(obj, add=True)) for f in fields]
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"{head} VALUES {', '.join([placeholders] * len(objs))} "
        f"RETURNING {prepare.db.ops.quote_name(model._meta.pk.column)}"
    )
    return sql, params


def _insert_head(model: type[Model]) -> tuple[list, str]:
    """Every field of ``model`` but the key, and ``INSERT INTO <table> (<their columns>)``."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = _db().ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    return fields, f"INSERT INTO {quote(model._meta.db_table)} ({columns})"


def _keys_set(objs: Sequence[Model], keys: list) -> None:
    for obj, key in zip(objs, keys, strict=True):
        obj.pk = key
        obj._state.adding = False
        obj._state.db = DEFAULT_DB_ALIAS


def insert_sql(model: type[Model], rows: list[dict]) -> tuple[str, list]:
    """``INSERT INTO <model's table> (every column but the key) VALUES (...), ...`` for
    ``rows`` (attribute name -> value, the same names in every row; the other fields take
    their defaults), each value prepared by its field as ``bulk_create`` would, without
    building model instances (the learning hook writes such rows on every move). Fields the
    ORM would fill at save time (``auto_now``) must be given."""
    db = _db()
    shape = _insert_shape(model, tuple(rows[0]), db.alias, db.vendor)
    fields = shape.fields
    # the other fields' defaults, prepared once for all rows (the constant ones once per process)
    prepared = dict(shape.defaults)
    for f in shape.called:
        prepared[f.attname] = f.get_db_prep_save(f.get_default(), db)
    params: list = []
    prepare = _Preparer()
    for row in rows:
        params += [
            prepared[f.attname] if f.attname in prepared else prepare(f, row[f.attname])
            for f in fields
        ]
    return shape.sql + ", ".join([shape.placeholders] * len(rows)), params


class _Shape:
    """What ``insert_sql`` builds the same for every statement of one model and set of given
    fields: the fields in order, the prepared constant defaults of the others, the fields
    whose default is called each time, the statement's head and one row's placeholders."""

    def __init__(self, model: type[Model], given: tuple[str, ...]) -> None:
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        missing = [f for f in self.fields if f.attname not in given]
        self.called = [f for f in missing if callable(f.default)]  # dict, now...: each time
        db = _db()
        self.defaults = {
            f.attname: f.get_db_prep_save(f.get_default(), db)
            for f in missing
            if not callable(f.default)
        }
        quote = db.ops.quote_name
        columns = ", ".join(quote(f.column) for f in self.fields)
        self.sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "
        self.placeholders = "(" + ", ".join(["%s"] * len(self.fields)) + ")"


@lru_cache(maxsize=64)
def _insert_shape(model: type[Model], given: tuple, alias: str, vendor: str) -> _Shape:  # noqa: ARG001
    """``_Shape`` per model, given fields and database (``alias`` and ``vendor`` key it)."""
    return _Shape(model, given)


def update(model: type[Model], values: dict[str, Any], where: dict[str, Any]) -> int:
    """``model.objects.filter(**where).update(**values)`` for plain equality filters, without
    the ORM's compiler; returns the number of rows changed (the guard of a conditional write).
    """
    sql, params = _update_sql(model, values, where)
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _update_sql(
    model: type[Model], values: dict[str, Any], where: dict[str, Any]
) -> tuple[str, list]:
    db = _db()
    sql, set_fields, where_fields = _update_shape(
        model, tuple(values), tuple(where), db.alias, db.vendor
    )
    params = [f.get_db_prep_save(v, db) for f, v in zip(set_fields, values.values(), strict=True)]
    params += [
        f.get_db_prep_value(v, db) for f, v in zip(where_fields, where.values(), strict=True)
    ]
    return sql, params


@lru_cache(maxsize=64)
def _update_shape(
    model: type[Model],
    names: tuple,
    where: tuple,
    alias: str,
    vendor: str,  # noqa: ARG001
) -> tuple[str, list, list]:
    """The statement of ``_update_sql`` and its fields, per model, field names and database
    (``alias`` and ``vendor`` key it): the same for every move."""
    meta, quote = model._meta, _db().ops.quote_name
    set_fields = [meta.get_field(name) for name in names]
    where_fields = [meta.get_field(name) for name in where]
    sets = ", ".join(f"{quote(field.column)} = %s" for field in set_fields)
    conditions = " AND ".join(f"{quote(field.column)} = %s" for field in where_fields)
    return f"UPDATE {table_name(model)} SET {sets} WHERE {conditions}", set_fields, where_fields


def update_then_insert(
    model: type[Model], values: dict[str, Any], where: dict[str, Any], objs: Sequence[Model]
) -> bool:
    """A guarded write: ``update(model, values, where)``, and only if it changed exactly one
    row, ``insert(objs)``; returns whether it did. Call it inside a transaction, and roll
    back when it returns False: on PostgreSQL both go in one statement (the UPDATE as a data-
    modifying ``WITH`` clause, its row count read by the INSERT's ``RETURNING``), so the
    INSERT has run even when the guard failed. Raises the ORM's ``IntegrityError`` as
    ``insert`` does (a unique ``(table, version)`` taken by a concurrent writer)."""
    db = _db()
    if db.vendor != "postgresql":
        if update(model, values, where) != 1:
            return False
        insert(objs)
        return True
    update_sql, update_params = _update_sql(model, values, where)
    insert_sql_, insert_params = _insert_objs_sql(objs)
    sql = (
        f"WITH guarded AS ({update_sql} RETURNING 1) {insert_sql_}, (SELECT count(*) FROM guarded)"
    )
    with db.cursor() as cursor:
        cursor.execute(sql, update_params + insert_params)
        rows = cursor.fetchall()
    if not rows or rows[0][1] != 1:
        return False
    _keys_set(objs, [row[0] for row in rows])
    return True
