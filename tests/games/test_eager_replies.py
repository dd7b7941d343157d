"""Eager mode saves a human move and its CPU replies in one guarded write: the same Move log,
the same learning events and prompts as the move and a bot task saved one after the other
(worker mode)."""

import pytest

from games import tasks
from games.engines import action_key, get_engine
from games.models import Move, Table
from games.services.play import StaleVersion, table_play
from games.services.tables import table_create
from learning.models import LearningEvent, Prompt

pytestmark = pytest.mark.django_db(transaction=True)  # the CPU replies follow the commit


def solo(user, seed_from: Table | None = None) -> Table:
    table = table_create(
        user=user,
        engine="kazoku-families",
        options={"variant": "kana", "prompts": "every"},
        seats=[{"kind": "human", "user": user}] + [{"kind": "bot", "level": "normal"}] * 3,
    )
    if seed_from is not None:  # the same deal and the same CPU choices
        Table.objects.filter(pk=table.pk).update(seed=seed_from.seed, state=seed_from.state)
    table.refresh_from_db()
    return table


def log_of(table: Table) -> list[tuple]:
    return list(
        Move.objects.filter(table=table)
        .order_by("version")
        .values_list("version", "seat", "action", "by_bot", "token")
    )


def learning_of(table: Table) -> tuple[list, list]:
    versions = dict(Move.objects.filter(table=table).values_list("pk", "version"))
    events = sorted(
        (versions[e.move_id], e.kana_id, e.script, e.kind)
        for e in LearningEvent.objects.filter(table_id=table.pk, move_id__isnull=False)
    )
    prompts = sorted(
        (versions[p.move_id], p.kana_id, p.script, p.kind, p.status)
        for p in Prompt.objects.filter(table_id=table.pk, move_id__isnull=False)
    )
    return events, prompts


def test_a_move_and_its_cpu_replies_saved_together_log_what_separate_saves_log(dana, monkeypatch):
    eager = solo(dana)
    worker = solo(dana, seed_from=eager)
    eng = get_engine(eager.engine)
    queued = []
    monkeypatch.setattr(tasks.bots_play, "delay_on_commit", lambda *args: queued.append(args))
    for turn in range(8):
        eager.refresh_from_db()
        if eager.status != "playing":
            break
        state = eng.from_json(eager.state)
        assert eng.to_act(state) == [0]  # the CPU players replied before the move returned
        legal = eng.legal_actions(state, 0)
        key = action_key(legal[turn % len(legal)])
        played = table_play(
            table=eager, user=dana, version=eager.version, token=f"t{turn}", key=key
        )
        assert played.table.version == Table.objects.get(pk=eager.pk).version
        assert played.state is not None and eng.to_json(played.state) == played.table.state

        monkeypatch.setattr(tasks, "runs_eagerly", lambda: False)
        worker.refresh_from_db()
        table_play(table=worker, user=dana, version=worker.version, token=f"t{turn}", key=key)
        while queued:  # the worker delivers the bot task
            tasks.bots_play(*queued.pop())
        monkeypatch.undo()
        monkeypatch.setattr(tasks.bots_play, "delay_on_commit", lambda *a: queued.append(a))

    assert len(log_of(eager)) > 8  # CPU moves among them
    assert log_of(eager) == log_of(worker)
    events, prompts = learning_of(eager)
    assert events and (events, prompts) == learning_of(worker)


def test_a_stale_move_saves_neither_itself_nor_replies(dana):
    table = solo(dana)
    eng = get_engine(table.engine)
    state = eng.from_json(table.state)
    key = action_key(eng.legal_actions(state, 0)[0])
    stale = Table.objects.get(pk=table.pk)
    table_play(table=table, user=dana, version=0, token="first", key=key)
    moves = log_of(table)
    with pytest.raises(StaleVersion):
        # read at version 0 like the first, a second writer's move (another token) loses
        table_play(table=stale, user=dana, version=0, token="second", key=key)
    assert log_of(table) == moves
    again = table_play(table=stale, user=dana, version=0, token="first", key=key)
    assert again.duplicate and log_of(table) == moves


def test_a_move_reads_the_kazoku_log_once_whatever_the_cpu_replies(dana, monkeypatch):
    """The human seats' views of the state before the move are taken before it is applied
    (``observe.human_views``), so the public memory of the log read for them is carried to
    every state after it: the learning hook and the CPU replies do not read the log again."""
    from games.engines.kazoku import families

    table = solo(dana)
    eng = get_engine(table.engine)
    for turn in range(4):  # after a few moves, the log is long enough to matter
        table.refresh_from_db()
        state = eng.from_json(table.state)
        key = action_key(eng.legal_actions(state, 0)[0])
        table_play(table=table, user=dana, version=table.version, token=f"w{turn}", key=key)
    real = families._memory_of_log
    replied = 0
    for turn in range(6):  # the deal is random: some moves get CPU replies, some do not
        table.refresh_from_db()
        if table.status != "playing":
            break
        reads = []
        monkeypatch.setattr(
            families,
            "_memory_of_log",
            lambda log, players, reads=reads: reads.append(len(log)) or real(log, players),
        )
        before = Move.objects.filter(table=table).count()
        state = eng.from_json(table.state)
        key = action_key(eng.legal_actions(state, 0)[0])
        played = table_play(
            table=table, user=dana, version=table.version, token=f"m{turn}", key=key
        )
        assert played.state is not None
        assert reads == [len(state.log)]  # once, of the state read from the database
        replied += Move.objects.filter(table=table).count() > before + 1
    assert replied  # at least one of those moves had CPU replies that did not read it again
