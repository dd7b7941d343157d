"""The load benchmark's server side: seed_load's class of students, the Server-Timing header."""

from __future__ import annotations

import io
import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.models import Move, Table
from learning.classroom.models import Membership

TIMING = re.compile(
    r'^cpu;dur=(\d+\.\d{3}), db;desc="queries";dur=(\d+), '
    r"app;dur=(\d+\.\d{3}), gc;dur=(\d+\.\d{3}), sql;dur=(\d+\.\d{3})$"
)


@pytest.mark.django_db
def test_seed_load_creates_a_class_of_students_each_at_a_dealt_solo_table(client):
    out = io.StringIO()
    call_command("seed_load", "--students", "3", "--password", "pw-load-1", stdout=out)
    seeded = json.loads(out.getvalue())

    assert len(seeded["students"]) == 3
    for student in seeded["students"]:
        table = Table.objects.get(code=student["table"])
        assert table.status == "playing"
        humans = [s for s in table.seats.all() if s.user_id]
        assert [s.user.username for s in humans] == [student["username"]]
        assert Membership.objects.filter(
            student__username=student["username"], classroom__join_code=seeded["join_code"]
        ).exists()
    first = seeded["students"][0]
    assert client.login(username=first["username"], password="pw-load-1")
    assert client.get(f"/play/t/{first['table']}/").status_code == 200


@pytest.mark.django_db(transaction=True)  # the CPU replies follow each seeded move's commit
def test_seed_load_midgame_starts_each_table_part_way_through_its_game():
    """``--midgame N``: each student has made k < N moves of a game still being played, and
    the CPU players have answered (it is the student's turn); the draws follow ``--seed``."""
    from games.engines import get_engine

    def seeded_moves(seed: str) -> list[int]:
        out = io.StringIO()
        call_command("seed_load", "--students", "6", "--midgame", "8", "--seed", seed, stdout=out)
        made = []
        for student in json.loads(out.getvalue())["students"]:
            table = Table.objects.get(code=student["table"])
            assert table.status == "playing"
            eng = get_engine(table.engine)
            assert eng.to_act(eng.from_json(table.state)) == [0]  # the student's turn
            human = Move.objects.filter(table=table, by_bot=False).count()
            assert human < 8
            assert Move.objects.filter(table=table).count() >= human
            made.append(human)
        return made

    first = seeded_moves("3")
    assert any(first) and len(set(first)) > 1  # part-way, and not all at one point
    assert seeded_moves("3") == first  # the same draws


@pytest.mark.django_db
def test_server_timing_reports_cpu_and_queries_when_enabled(client, settings):
    settings.MIDDLEWARE = ["kanagame.server_timing.ServerTimingMiddleware", *settings.MIDDLEWARE]
    response = client.get("/login/")
    match = TIMING.match(response["Server-Timing"])
    assert match, response["Server-Timing"]
    assert float(match.group(1)) > 0
    assert float(match.group(3)) >= float(match.group(1)) * 0.5  # wall time in the app
    assert float(match.group(5)) <= float(match.group(3))  # of which in the database driver

    call_command("seed_load", "--students", "1", stdout=io.StringIO())
    table = Table.objects.latest("id")
    client.force_login(table.seats.get(index=0).user)
    polled = client.get(f"/play/t/{table.code}/poll/?v={table.version}")
    assert polled.status_code == 204
    assert int(TIMING.match(polled["Server-Timing"]).group(2)) >= 1  # it read the table


def test_server_timing_counts_the_cpu_of_the_requests_own_thread_only():
    """A gthread worker (``bench/load.py --threads``) serves requests side by side: the CPU
    another thread burns meanwhile is not this request's (``time.process_time`` counted it)."""
    import threading
    import time

    from django.http import HttpRequest, HttpResponse

    from kanagame.server_timing import ServerTimingMiddleware

    stop = threading.Event()

    def burn() -> None:
        while not stop.is_set():
            sum(range(1000))

    def waits(request):  # a request that only waits (on the database, say)
        time.sleep(0.3)
        return HttpResponse("ok")

    spinner = threading.Thread(target=burn)
    spinner.start()
    try:
        burned = time.process_time()
        response = ServerTimingMiddleware(waits)(HttpRequest())
        burned = time.process_time() - burned
    finally:
        stop.set()
        spinner.join()
    match = TIMING.match(response["Server-Timing"])
    assert burned > 0.15  # the other thread did run meanwhile
    assert float(match.group(1)) < 50  # ms: not the other thread's ~300
    assert float(match.group(3)) >= 300  # the request's wall time


def test_a_process_trees_cpu_counts_its_children_alive_now():
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; t = time.process_time()\n"
         "while time.process_time() - t < 0.3: pass\ntime.sleep(30)"]
    )  # fmt: skip
    try:
        import os
        import time

        deadline = time.monotonic() + 20
        while load.cpu_seconds(child.pid) < 0.25 and time.monotonic() < deadline:
            time.sleep(0.05)
        own = load.cpu_seconds(os.getpid())
        assert load.tree_cpu_seconds(os.getpid()) >= own + 0.25  # the child's 0.3 s counted
    finally:
        child.kill()
        child.wait()


def test_load_serves_sync_workers_or_gthread_workers_with_threads(monkeypatch, tmp_path):
    started = []

    class Served:
        pid = 1

        def poll(self):
            return None

    def popen(command, **kwargs):
        started.append(command)
        return Served()

    monkeypatch.setattr(load.subprocess, "Popen", popen)
    monkeypatch.setattr(load.socket, "create_connection", lambda *a, **k: io.BytesIO())
    load.serve({}, 8000, 3, tmp_path / "a.log")
    load.serve({}, 8000, 3, tmp_path / "b.log", "baseline", threads=4)
    sync, threaded = started
    assert "--threads" not in sync and "--worker-class" not in sync
    assert sync[sync.index("--workers") + 1] == "3"
    assert threaded[threaded.index("--worker-class") + 1] == "gthread"
    assert int(threaded[threaded.index("--keep-alive") + 1]) > 2 * 2  # the client asks every 2 s
    assert threaded[threaded.index("--threads") + 1] == "4"
    assert "baseline_app:application" in threaded
    assert load.parse_args(["--threads", "4"]).threads == 4
    assert load.parse_args([]).threads == 1
    assert not load.parse_args([]).no_catch_up and load.parse_args(["--no-catch-up"]).no_catch_up


def test_server_timing_is_off_by_default():
    assert "kanagame.server_timing.ServerTimingMiddleware" not in settings.MIDDLEWARE


# --- worker mode: every bot task counted (bench/load.py --celery) -------------------------------

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import load  # noqa: E402


def _log(*runs) -> str:
    return "".join(
        f"[2026-12-01 08:00:00,000: INFO/ForkPoolWorker-1] games.tasks.bots_play[x]: "
        f"bots_play table={t} version={v} played={n}\n"
        for t, v, n in runs
    )


def test_task_accounting_matches_each_task_run_with_its_run_of_cpu_moves():
    audit = {"table_ids": [1, 2], "runs": [[1, 1], [1, 4], [2, 0]], "bot_moves": 5, "waiting": []}
    log = _log((1, 1, 2), (1, 4, 2), (2, 0, 1), (1, 1, 0))  # the last: a duplicate delivery
    log += _log((99, 3, 2))  # another run's table: not counted
    tasks = load.tasks_account(log, audit)
    assert tasks == {
        "needed": 3,
        "executed": 4,
        "applied": 3,
        "noop": 1,
        "failed": 0,
        "lost": 0,
        "doubled": 0,
        "unmatched": 0,
        "bot_moves": 5,
        "bot_moves_logged": 5,
        "ok": True,
    }


def test_task_accounting_fails_on_a_lost_a_doubled_or_an_unmatched_task():
    audit = {"table_ids": [1, 2, 3], "runs": [[1, 1], [2, 0]], "bot_moves": 3, "waiting": [3]}
    lost = load.tasks_account(_log((1, 1, 2), (2, 0, 1)), audit)
    assert (lost["lost"], lost["needed"], lost["ok"]) == (1, 3, False)

    audit["waiting"] = []
    doubled = load.tasks_account(_log((1, 1, 2), (1, 1, 2), (2, 0, 1)), audit)
    assert (doubled["doubled"], doubled["ok"]) == (1, False)

    missing = load.tasks_account(_log((1, 1, 2)), audit)  # a run saved without its task
    assert (missing["unmatched"], missing["bot_moves_logged"], missing["ok"]) == (1, 2, False)

    failed = _log((1, 1, 2), (2, 0, 1)) + "Task games.bots_play[abc] raised unexpected: X\n"
    assert load.tasks_account(failed, audit)["failed"] == 1


@pytest.mark.django_db(transaction=True)
def test_bots_audit_reads_runs_of_cpu_moves_and_tables_waiting_for_a_cpu(monkeypatch, caplog):
    from games.engines import action_key, get_engine
    from games.services.play import table_play
    from games.tasks import bots_play

    call_command("seed_load", "--students", "2", stdout=io.StringIO())
    eager, queued = Table.objects.order_by("id")[:2]
    user = eager.seats.get(index=0).user
    eng = get_engine(eager.engine)

    def first_move(table):
        table.refresh_from_db()
        state = eng.from_json(table.state)
        key = action_key(eng.legal_actions(state, 0)[0])
        return table_play(table=table, user=table.seats.get(index=0).user, version=table.version,
                          token=f"t{table.pk}-{table.version}", key=key)  # fmt: skip

    def cpu_to_act(table) -> bool:
        table.refresh_from_db()
        return eng.to_act(eng.from_json(table.state))[0] != 0

    assert user is not None
    # eager mode: the CPU replies are saved with the move. A successful ask keeps the turn
    # (the deal is random), so play until a move hands it to a CPU player.
    played = first_move(eager)
    while not Move.objects.filter(table=eager, by_bot=True).exists():
        played = first_move(eager)
    version = played.move.version
    # worker mode: the move queues its task, which is not delivered yet
    monkeypatch.setattr("games.tasks.runs_eagerly", lambda: False)
    monkeypatch.setattr(bots_play, "delay_on_commit", lambda *args: None)
    waiting = first_move(queued).table
    while not cpu_to_act(queued):
        waiting = first_move(queued).table
    out = io.StringIO()
    call_command("bots_audit", stdout=out)
    audit = json.loads(out.getvalue())
    bot_moves = Move.objects.filter(by_bot=True).count()
    assert audit["table_ids"] == sorted([eager.pk, queued.pk]) and audit["tables"] == 2
    assert [eager.pk, version] in audit["runs"]
    assert audit["bot_moves"] == bot_moves
    assert audit["waiting"] == [queued.pk]

    with caplog.at_level(logging.INFO, logger="games.tasks"):
        assert bots_play(queued.pk, waiting.version) > 0  # the task, delivered at last
        assert bots_play(queued.pk, waiting.version) == 0  # and again: nothing
    audit = _audit()
    assert [queued.pk, waiting.version] in audit["runs"] and not audit["waiting"]
    # The worker table alone (the eager one's replies ran inline, without a task).
    worker_only = {
        "table_ids": [queued.pk],
        "runs": [run for run in audit["runs"] if run[0] == queued.pk],
        "bot_moves": Move.objects.filter(table=queued, by_bot=True).count(),
        "waiting": audit["waiting"],
    }
    tasks = load.tasks_account(caplog.text, worker_only)
    assert (tasks["applied"], tasks["noop"], tasks["lost"], tasks["ok"]) == (1, 1, 0, True)


def _audit() -> dict:
    out = io.StringIO()
    call_command("bots_audit", stdout=out)
    return json.loads(out.getvalue())


def test_each_load_run_sends_its_tasks_to_a_queue_of_its_own(tmp_path):
    """Another worker on the same Redis (CI's, for the test suite) must not take the run's
    bot tasks: the run's worker log could not count them."""
    first = load.server_env(tmp_path / "kanagame-load-a")["KANAGAME_CELERY_QUEUE"]
    second = load.server_env(tmp_path / "kanagame-load-b")["KANAGAME_CELERY_QUEUE"]
    assert first.startswith("load-") and first != second
    assert settings.CELERY_TASK_DEFAULT_QUEUE == "celery"  # everyone else: the default queue


# --- the same-run baseline, the ratios, the slowest requests (issue 28) -----------------------


def _row(kind, ms, *, t=100.0, cpu=1.0, app=None, gc=0.0, sql=0.1):
    return load.Row(kind, ms, True, cpu, 2, t, ms if app is None else app, gc, sql)


def _summary(poll, move, move_cpu):
    def p(values):
        return {"p95": values[0], "p99": values[1]}

    return {"poll": p(poll), "move": p(move), "cpu_ms_per_request": {"move": move_cpu}}


def test_ratios_divide_the_products_figures_by_the_baselines_of_the_same_run():
    product = _summary((10.0, 30.0), (40.0, 90.0), 12.0)
    baseline = _summary((5.0, 10.0), (20.0, 30.0), 4.0)
    assert load.ratios(product, baseline) == {
        "poll_p95": 2.0, "poll_p99": 3.0, "move_p95": 2.0, "move_p99": 3.0, "move_cpu": 3.0
    }  # fmt: skip
    empty = _summary((None, None), (40.0, 90.0), None)
    assert load.ratios(empty, baseline)["poll_p95"] is None
    assert load.ratios(product, empty)["move_cpu"] is None


def test_the_summary_reads_the_server_timing_header_with_or_without_app_and_gc():
    record = load.Record()
    record.add("poll", 5.0, True, {"Server-Timing": 'cpu;dur=1.500, db;desc="queries";dur=2'})
    record.add(
        "move", 9.0, True,
        {"Server-Timing": 'cpu;dur=6.000, db;desc="queries";dur=9, app;dur=7.250, gc;dur=1.500, '
                          'sql;dur=0.750'},
    )  # fmt: skip
    poll, move = record.rows
    assert (poll.cpu, poll.queries, poll.app, poll.gc, poll.sql) == (1.5, 2, None, None, None)
    assert (move.cpu, move.queries, move.app, move.gc, move.sql) == (6.0, 9, 7.25, 1.5, 0.75)


def test_the_slowest_requests_are_explained_by_queueing_gc_checkpoints_and_log_ins():
    window = [(0.0, 1000.0)]
    rows = [_row("poll", 5.0, t=float(i)) for i in range(300)]  # p99: the 4th slowest of 304
    rows += [
        _row("poll", 900.0, t=300.0, app=10.0),  # waited for a worker
        _row("poll", 800.0, t=400.0, app=790.0, cpu=780.0),  # its own CPU
        _row("poll", 700.0, t=500.0, app=690.0, cpu=5.0, gc=300.0),  # waiting, and the GC
        _row("poll", 750.0, t=600.0, app=740.0, cpu=5.0, sql=700.0),  # SQLite's write lock
        _row("login", 2000.0, t=300.5),  # in flight during the first
    ]
    tail = load.tail_causes(rows, window, checkpoints=[399.9])["poll"]
    assert tail["n"] == 4 and tail["p99_ms"] == 700.0
    assert (tail["queued"], tail["in_app_cpu"], tail["in_app_waiting"], tail["gc"]) == (1, 1, 2, 1)
    assert tail["in_sql"] == 1
    assert (tail["checkpoint"], tail["login"]) == (1, 1)
    assert tail["median_ms"]["latency"] == 775.0


def test_the_window_waits_until_no_request_answered_in_the_last_second_was_queued():
    """The ramp-up's backlog: requests sent behind the log-ins are answered seconds after the
    last table opened, each having waited for a worker (client ms minus the app's)."""
    backlog = [_row("move", 900.0, t=50.2 + i / 10, app=12.0) for i in range(5)]
    drained = [_row("move", 20.0, t=51.0 + i / 10, app=15.0) for i in range(9)]
    rows = backlog + drained
    assert not load.caught_up(rows, now=50.8)  # the backlog is still being answered
    assert not load.caught_up(rows, now=51.5)  # its last answer (at 50.6) is < 1 s old
    assert load.caught_up(rows, now=51.9)  # one second of answers without a queue
    # the threshold is the wait, not the latency: a slow request of the app's own is no queue
    assert load.caught_up([_row("move", 400.0, t=60.0, app=395.0)], now=60.5)
    # log-ins (their answers queue behind Argon2) and rows without the server's timing are
    # not read; no answer at all is no evidence
    assert load.caught_up(drained + [_row("login", 2000.0, t=51.7, app=30.0)], now=51.9)
    assert not load.caught_up([load.Row("reply", 900.0, True, None, None, 51.8)], now=51.9)
    assert not load.caught_up([], now=51.9)
    # an answer after ``now`` does not count
    assert load.caught_up(drained + [_row("move", 900.0, t=52.5, app=5.0)], now=51.9)


def test_the_tail_names_the_requests_sent_before_the_window_opened():
    window = [(100.0, 200.0)]
    rows = [_row("move", 5.0, t=101.0 + i / 10) for i in range(100)]  # p99: the 2nd slowest
    rows += [
        _row("move", 1500.0, t=100.4, app=10.0),  # sent at 98.9: the ramp-up's backlog
        _row("move", 900.0, t=150.0, app=10.0),  # sent inside the window
        _row("move", 9000.0, t=99.0, app=10.0),  # answered before the window: not counted
    ]
    tail = load.tail_causes(rows, window, checkpoints=[])["move"]
    assert tail["n"] == 2 and tail["before_window"] == 1


def test_a_checkpoint_is_read_from_the_wal_headers_sequence_number(tmp_path):
    import sqlite3

    path = tmp_path / "db.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    wal = Path(f"{path}-wal")
    before = load.wal_sequence(wal)
    db.execute("PRAGMA wal_checkpoint(RESTART)")
    db.execute("INSERT INTO t VALUES (1)")  # the next writer restarts the log
    db.commit()
    assert before is not None and load.wal_sequence(wal) == before + 1
    assert load.wal_sequence(tmp_path / "missing-wal") is None
    assert load.wal_sequence(None) is None


def test_students_spread_evenly_over_several_hosts():
    """One Locust user class per host, of equal weight (in a fresh interpreter: Locust
    patches the standard library with gevent's as it is imported)."""
    code = (
        "import sys; sys.path.insert(0, 'bench'); import load\n"
        "from locust.env import Environment\n"
        "from locust.dispatch import UsersDispatcher\n"
        "args = type('A', (), {'interval': 2.0, 'move_share': 0.2, 'board_share': 0.05})()\n"
        "hosts = ['http://127.0.0.1:8181', 'http://127.0.0.1:8182']\n"
        "classes = load.make_user_classes(args, [], load.Record(), hosts)\n"
        "assert [c.host for c in classes] == hosts\n"
        "assert not any(c.abstract for c in classes)\n"
        "runner = Environment(user_classes=classes).create_local_runner()\n"
        "d = UsersDispatcher(worker_nodes=[runner._local_worker_node], user_classes=classes)\n"
        "d.new_dispatch(target_user_count=300, spawn_rate=300)\n"
        "counts = list(d)[-1][runner._local_worker_node.id]\n"
        "print(sorted(counts.values()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=BENCH.parent, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[150, 150]"


def test_the_timeline_puts_latency_beside_log_ins_checkpoints_and_cpu():
    sampler = load.Sampler(None)
    sampler.samples = [
        {"t": 10.1, "load1": 3.0, "servers_cpu": 5.0, "client_cpu": 1.0},
        {"t": 10.9, "load1": 3.5, "servers_cpu": 5.8, "client_cpu": 1.2},
    ]
    sampler.checkpoints = [10.5]
    rows = [_row("poll", 4.0, t=10.2), _row("poll", 400.0, t=10.8, app=20.0, gc=2.0),
            _row("login", 1500.0, t=11.2)]  # fmt: skip
    line = load.timeline(rows, sampler, origin=10.0)[0]
    assert line["t"] == 0 and line["n"] == 2 and line["poll_max"] == 400.0
    assert (line["logins_in_flight"], line["checkpoints"], line["queued_max"]) == (1, 1, 380.0)
    assert (line["servers_cores"], line["client_cores"], line["load1"]) == (1.0, 0.25, 3.5)


def test_callgrind_totals_are_read_from_its_output_file(tmp_path):
    sys.path.insert(0, str(Path(settings.BASE_DIR) / "bench"))
    from move_callgrind import instructions

    out = tmp_path / "callgrind.out"
    out.write_text("version: 1\nevents: Ir\nfn=(1) main\n3 120\nsummary: 4242\ntotals: 4242\n")
    assert instructions(out) == 4242
    out.write_text("events: Ir\n")
    with pytest.raises(SystemExit):
        instructions(out)


def test_the_instrumented_profile_runs_each_request_through_sys_call_tracing(tmp_path):
    """Without valgrind, ``sys.call_tracing`` only calls: the run answers as an ordinary one,
    and two runs of one seed play the same moves with the same statements."""
    bench = Path(settings.BASE_DIR) / "bench" / "move_profile.py"
    reports = []
    for _run in range(2):
        done = subprocess.run(
            [sys.executable, str(bench), "--instrument", "move", "--tables", "1", "--moves", "2"],
            env={**__import__("os").environ, "BENCH_SECRET_KEY": "k" * 50, "PYTHONHASHSEED": "0"},
            capture_output=True, text=True, check=False, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        reports.append(json.loads(done.stdout[done.stdout.index("{") :]))
    assert reports[0]["move"]["n"] == reports[1]["move"]["n"] == 2
    assert reports[0]["move"]["queries_median"] == reports[1]["move"]["queries_median"]
    # the moves by their game's stage: both moves are in the first group of five
    assert list(reports[0]["move_by_stage"]) == ["1-5"]
    assert reports[0]["move_by_stage"]["1-5"]["n"] == 2
