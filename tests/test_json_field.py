"""The JSON columns encode and decode with orjson (kanagame.db.fields) and store what Django's own
JSONField stores: the same document, rows written before read as before, on SQLite and on
PostgreSQL (CI's second pass)."""

import json
import math
import random
from datetime import date

import pytest
from django.db import connection, models
from factories import solo_kazoku_table
from hypothesis import given
from hypothesis import strategies as st

from games.engines import get_engine
from games.models import Move, Table
from games.selectors import table_with_seats
from kanagame.db.fields import JSONField, dumps, loads
from learning.models import KanaMemory

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)


@given(JSON_VALUES)
def test_the_document_is_the_one_json_writes(value):
    text = dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert list(_keys(json.loads(text))) == list(_keys(json.loads(json.dumps(value))))
    assert loads(json.dumps(value)) == json.loads(json.dumps(value))  # rows written before


def _keys(value):
    """Every dict's keys, in order, depth first (orjson and json keep insertion order)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def test_what_orjson_does_not_take_is_left_to_json():
    assert dumps({"n": 2**70}) == json.dumps({"n": 2**70})  # beyond 64 bits
    assert loads('{"n": 1180591620717411303424}') == {"n": 2**70}
    assert math.isnan(loads('{"x": NaN}')["x"])  # an old row of json's own
    assert dumps({1: "a"}) == '{"1":"a"}'  # non-string keys as json writes them
    with pytest.raises(TypeError):  # refused as json refuses it, never stored as text
        dumps({"day": date(2026, 12, 7)})
    with pytest.raises(json.JSONDecodeError):
        loads("not json")


def test_a_field_with_its_own_encoder_keeps_djangos_path():
    class Encoder(json.JSONEncoder):
        def default(self, o):
            return o.isoformat() if isinstance(o, date) else super().default(o)

    field = JSONField(encoder=Encoder)
    prepared = field.get_db_prep_value({"day": date(2026, 12, 7)}, connection)
    text = prepared if isinstance(prepared, str) else prepared.dumps(prepared.obj)  # PG: Jsonb
    assert json.loads(text) == {"day": "2026-12-07"}
    assert JSONField().deconstruct()[1] == "django.db.models.JSONField"  # no migration
    assert isinstance(JSONField(), models.JSONField)


@pytest.mark.django_db
def test_a_played_table_round_trips_its_state_and_moves(dana):
    table = solo_kazoku_table(dana)
    eng = get_engine(table.engine)
    state = eng.from_json(table.state)
    rng = random.Random(3)
    for _ in range(30):  # a long log: kana in every event
        if eng.is_over(state):
            break
        seat = eng.to_act(state)[0]
        state, _events = eng.apply(state, seat, rng.choice(eng.legal_actions(state, seat)))
    saved = eng.to_json(state)
    Table.objects.filter(pk=table.pk).update(state=saved, options={"variant": "kana"})
    Move.objects.create(table=table, version=99, seat=0, action={"type": "ask", "card": "か"})

    assert Table.objects.get(pk=table.pk).state == saved
    found, _seats = table_with_seats(code=table.code)  # the hot read in SQL (accounts.rows)
    assert found.state == saved
    assert eng.from_json(found.state) == state
    assert Move.objects.get(table=table, version=99).action == {"type": "ask", "card": "か"}
    assert Move.objects.filter(table=table, action__card="か").count() == 1  # key lookups
    assert Table.objects.filter(pk=table.pk, options__variant="kana").exists()


@pytest.mark.django_db
def test_rows_written_by_djangos_encoder_read_as_before(dana):
    table = solo_kazoku_table(dana)
    before = {"hands": [["か", "き"]], "note": "ほし", "n": 3, "f": 0.5}
    with connection.cursor() as cursor:  # the text json.dumps wrote: kana as \\u escapes
        if connection.vendor == "postgresql":
            cursor.execute(
                "UPDATE games_table SET state = %s::jsonb WHERE id = %s",
                [json.dumps(before), table.pk],
            )
        else:
            cursor.execute(
                "UPDATE games_table SET state = %s WHERE id = %s", [json.dumps(before), table.pk]
            )
    assert Table.objects.get(pk=table.pk).state == before
    assert table_with_seats(code=table.code)[0].state == before


@pytest.mark.django_db
def test_a_memory_card_of_floats_round_trips(dana):
    from fsrs import Card

    card = Card().to_dict()
    memory = KanaMemory.objects.create(learner=dana, kana_id="ka", script="hiragana", card=card)
    assert KanaMemory.objects.get(pk=memory.pk).card == card


def test_every_json_column_of_the_product_goes_through_orjson():
    from django.apps import apps

    fields = {
        f"{model.__name__}.{field.name}": field
        for model in apps.get_models()
        if model.__module__.split(".")[0] in {"games", "learning", "kanagame"}
        for field in model._meta.concrete_fields
        if isinstance(field, models.JSONField)
    }
    assert {"Table.state", "Move.action", "KanaMemory.card"} <= fields.keys()
    assert [name for name, field in fields.items() if type(field) is not JSONField] == []
