"""The open prompts the learning hook of a move read go to the board of the same request (the
signal's ``handover``): the board shows what a fresh read would show, with one read fewer, and
reads them again whenever the hook opened a prompt or read none."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engines import action_key, get_engine
from games.services.tables import table_create
from games.tokens import action_token
from learning.models import Prompt
from learning.receivers import PROMPTS_HANDOVER, seat_observations_record, table_prompts_panel
from learning.services.play import (
    MAX_OPEN_PROMPTS,
    SeenStep,
    _open_prompts,
    plays_observed,
    prompts_pending,
)

HX = {"HTTP_HX_REQUEST": "true"}
PAIRS = (("ka", "hiragana"), ("ki", "hiragana"), ("ku", "hiragana"), ("ke", "hiragana"))


def _fields(prompts):
    return [
        (p.pk, p.kind, p.kana_id, p.script, p.choices, p.status, p.shown_at, p.expires_at)
        for p in prompts
    ]


def _prompt_selects(queries) -> int:
    """Statements that read the prompts (on PostgreSQL the hook's read is the main query of
    its write's ``WITH`` statement)."""
    read = f"FROM {connection.ops.quote_name(Prompt._meta.db_table)}"
    return sum(1 for q in queries if read in q["sql"])


@pytest.mark.django_db
def test_the_hook_returns_the_open_prompts_when_it_opened_none(dana, t0):
    # the room filled: MAX_OPEN_PROMPTS open at the table
    plays_observed(
        user=dana, table_id=11, prompt_mode="every", steps=[SeenStep(1, entered_hand=PAIRS)], at=t0
    )
    assert len(_open_prompts(learner=dana, table_id=11)) == MAX_OPEN_PROMPTS
    later = t0 + timedelta(seconds=5)
    opened = plays_observed(
        user=dana,
        table_id=11,
        prompt_mode="every",
        steps=[SeenStep(2, entered_hand=(("sa", "hiragana"),))],
        at=later,
    )
    assert opened is not None
    assert _fields(opened) == _fields(_open_prompts(learner=dana, table_id=11))


@pytest.mark.django_db
def test_the_hook_returns_nothing_when_it_opened_a_prompt_or_read_none(dana, t0):
    made = plays_observed(
        user=dana, table_id=11, prompt_mode="every", steps=[SeenStep(1, entered_hand=PAIRS)], at=t0
    )
    assert made is None  # it opened prompts: the board reads them
    assert Prompt.objects.filter(learner=dana, table_id=11).count() == MAX_OPEN_PROMPTS
    # every prompt expired: the next step opens new ones
    much_later = t0 + timedelta(hours=1)
    assert (
        plays_observed(
            user=dana,
            table_id=11,
            prompt_mode="every",
            steps=[SeenStep(2, entered_hand=(("sa", "hiragana"),))],
            at=much_later,
        )
        is None
    )
    # prompts off: exposures only, nothing read
    assert (
        plays_observed(
            user=dana,
            table_id=11,
            prompt_mode="off",
            steps=[SeenStep(3, shown=(("so", "hiragana"),))],
            at=much_later,
        )
        is None
    )


@pytest.mark.django_db
def test_expired_prompts_are_not_handed_over(dana, t0, monkeypatch):
    plays_observed(
        user=dana, table_id=11, prompt_mode="every", steps=[SeenStep(1, entered_hand=PAIRS)], at=t0
    )
    first = _open_prompts(learner=dana, table_id=11)[0]
    Prompt.objects.filter(pk=first.pk).update(expires_at=t0 + timedelta(seconds=1))
    # the room it frees asks about nothing this time (no kana worth asking, say)
    monkeypatch.setattr("learning.services.play._prompts_make_many", lambda **kw: [])
    at = t0 + timedelta(seconds=2)
    opened = plays_observed(
        user=dana,
        table_id=11,
        prompt_mode="every",
        steps=[SeenStep(2, entered_hand=(("sa", "hiragana"),))],
        at=at,
    )
    assert opened is not None
    assert first.pk not in [p.pk for p in opened]
    assert Prompt.objects.get(pk=first.pk).status == "expired"
    assert _fields(opened) == _fields(_open_prompts(learner=dana, table_id=11))
    assert len(opened) == MAX_OPEN_PROMPTS - 1


@pytest.mark.django_db
def test_the_panel_uses_the_handover_of_its_learner_only(dana, t0):
    plays_observed(
        user=dana, table_id=11, prompt_mode="every", steps=[SeenStep(1, entered_hand=PAIRS)], at=t0
    )
    fresh = prompts_pending(user=dana, table_id=11)
    opened = _open_prompts(learner=dana, table_id=11)
    with CaptureQueriesContext(connection) as queries:
        panel = table_prompts_panel(
            user=dana, table_id=11, handover={(PROMPTS_HANDOVER, dana.pk, 11): opened}
        )
    assert panel["prompts"] == fresh
    assert _prompt_selects(queries) == 0
    # another learner's or another table's entry is never used
    for key in ((PROMPTS_HANDOVER, dana.pk + 1, 11), (PROMPTS_HANDOVER, dana.pk, 12)):
        with CaptureQueriesContext(connection) as queries:
            panel = table_prompts_panel(user=dana, table_id=11, handover={key: []})
        assert panel["prompts"] == fresh
        assert _prompt_selects(queries) == 1


@pytest.mark.django_db
def test_the_receiver_fills_the_handover_only_when_it_opened_nothing(dana, t0):
    from games.signals import SeatObservation

    def seen(move_id, pairs):
        return SeatObservation(
            user=dana,
            seat=0,
            table_id=11,
            move_id=move_id,
            shown=(),
            entered_hand=pairs,
            asked=(),
            prompt_mode="every",
        )

    handover: dict = {}
    seat_observations_record(observations=(seen(1, PAIRS),), handover=handover)
    assert handover == {}  # prompts were opened
    seat_observations_record(observations=(seen(2, (("sa", "hiragana"),)),), handover=handover)
    key = (PROMPTS_HANDOVER, dana.pk, 11)
    assert _fields(handover[key]) == _fields(_open_prompts(learner=dana, table_id=11))
    seat_observations_record(observations=(seen(3, (("so", "hiragana"),)),), handover=None)


@pytest.mark.django_db(transaction=True)  # the hook runs after the commit
def test_a_moves_board_shows_the_prompts_a_fresh_read_shows_with_one_read(client, dana):
    table = table_create(
        user=dana,
        engine="kazoku-families",
        options={"variant": "kana", "prompts": "every"},
        seats=[{"kind": "human", "user": dana}] + [{"kind": "bot", "level": "normal"}] * 2,
    )
    client.force_login(dana)
    eng = get_engine(table.engine)
    single_reads = 0
    for _turn in range(10):
        table.refresh_from_db()
        if table.status != "playing":
            break
        state = eng.from_json(table.state)
        if 0 not in eng.to_act(state):
            break
        action = eng.legal_actions(state, 0)[0]
        data = {
            "version": table.version,
            "token": f"t{_turn}",
            "action": action_token(table.pk, action_key(action)),
        }
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/play/t/{table.code}/", data, **HX)
        assert response.status_code == 200
        shown = response.context["prompts"]
        assert shown == prompts_pending(user=dana, table_id=table.pk)
        reads = _prompt_selects(queries)
        assert reads in (1, 2)
        single_reads += reads == 1
    assert single_reads  # the room filled up: the board reused the hook's read
