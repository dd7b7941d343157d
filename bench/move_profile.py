"""Where a move's CPU time goes: one solo Kazoku table, production settings, one process.

    .venv/bin/python bench/move_profile.py                    # CPU ms and queries per request
    .venv/bin/python bench/move_profile.py --sql              # ... and the SQL of one move
    .venv/bin/python bench/move_profile.py --profile 40       # ... and cProfile's top 40
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kanagame_perf .venv/bin/python \\
        bench/move_profile.py                                  # PostgreSQL (the db is reset)

The same request shapes as ``bench/load.py`` (a student of a class, a solo Kazoku families
table with two normal CPU players, prompts "new", ``DJANGO_DEBUG=0``), sent through Django's
test client in this process, so ``time.process_time`` and the query count are those of the
request alone (middleware included) without a network or a second process. Three kinds:

- ``move``: the HTMX POST of a legal move (the human move, the CPU replies inline in eager
  mode, the learning hook, the board partial);
- ``board``: the poll that finds a change (``?v=`` one behind), which answers the board partial;
- ``poll``: the poll that finds no change (204).

``--profile N`` runs the moves (or ``--kind board``) under cProfile and prints the N most
expensive functions by cumulative time. ``--phases`` times the main steps of a request
instead (inclusive CPU time of each function below, per request of each kind): less
distorted than cProfile, which inflates pure-Python code such as the ORM's.
"""

from __future__ import annotations

import argparse
import cProfile
import html
import io
import json
import os
import pstats
import re
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ACTION_RE = re.compile(r'name="action" value="([^"]+)"')
TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')
VERSION_RE = re.compile(r'data-version="(\d+)"')
FORM_TYPE = "application/x-www-form-urlencoded"


def setup_django(folder: str) -> None:
    os.environ.update(
        DJANGO_DEBUG="0",
        # a fixed key for counting instructions (bench/move_callgrind.py), a new one otherwise
        DJANGO_SECRET_KEY=os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="kanagame.settings",
        DJANGO_LOG_LEVEL="ERROR",
    )
    os.environ.pop("REDIS_URL", None)
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = os.path.join(folder, "profile.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    if os.environ.get("DATABASE_URL"):
        call_command("flush", "--noinput", verbosity=0)
    cache = os.environ.get("KANAGAME_BENCH_DB_CACHE", "")  # a migrated SQLite file, reused
    sqlite = os.environ.get("SQLITE_PATH", "")
    if cache and sqlite and Path(cache).exists():
        shutil.copyfile(cache, sqlite)
    call_command("migrate", verbosity=0)
    if cache and sqlite and not Path(cache).exists():
        from django.db import connection

        connection.close()
        shutil.copyfile(sqlite, cache)
    from django.conf import settings

    # DEBUG=0 serves static URLs from the manifest: a fresh clone has none yet (bench/load.py
    # collects them the same way)
    if not Path(settings.STATIC_ROOT, "staticfiles.json").exists():
        call_command("collectstatic", "--noinput", verbosity=0)


class Queries:
    def __init__(self) -> None:
        self.sql: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        self.sql.append(sql)
        return execute(sql, params, many, context)


# (module, function): the steps --phases times, inclusive (a step's time includes its callees)
PHASES = [
    ("games.views.board", "table_loaded"),  # table-code check, table, seats, access
    ("games.views.board", "table_play"),  # the service: move, CPU replies, hooks
    ("games.services.play", "replies_plan"),  # CPU replies chosen in memory (eager)
    ("games.services.play", "moves_save"),  # the guarded write, then the hook (on commit)
    ("games.services.play", "moves_observed"),  # the learning hook, games side
    ("learning.receivers", "plays_observed"),  # the learning hook's writes
    ("games.views.board", "_context"),  # board context: presenter, players, panels
    ("games.views.board", "board_for"),  # engine view + legal actions + presenter
    ("games.views.board", "table_panels"),  # the learner's open prompts
    ("games.views.board", "render"),  # the template
]
PHASE_TIMES: dict[tuple[str, str], float] = {}
CURRENT = {"kind": ""}


def phases_install(extra: list[str]) -> None:
    import functools
    import importlib

    for module_name, name in PHASES + [tuple(text.rsplit(":", 1)) for text in extra]:
        module = importlib.import_module(module_name)
        *outer, last = name.split(".")  # "Class.method" too
        for part in outer:
            module = getattr(module, part)
        function = getattr(module, last)

        def timed(*args, _function=function, _key=(module_name, name), **kwargs):
            started = time.process_time()
            try:
                return _function(*args, **kwargs)
            finally:
                key = (CURRENT["kind"], f"{_key[0]}.{_key[1]}")
                PHASE_TIMES[key] = PHASE_TIMES.get(key, 0.0) + time.process_time() - started

        setattr(module, last, functools.wraps(function)(timed))


def instrument_phase(text: str) -> None:
    """Count the calls of ``text`` (``module:function`` or ``module:Class.method``) made
    inside the instrumented kind's requests, instead of the whole requests."""
    import functools
    import importlib

    module_name, name = text.rsplit(":", 1)
    owner = importlib.import_module(module_name)
    *outer, last = name.split(".")
    for part in outer:
        owner = getattr(owner, part)
    function = getattr(owner, last)

    def traced(*args, _function=function, **kwargs):
        if CURRENT["kind"] != INSTRUMENT["kind"]:
            return _function(*args, **kwargs)
        return sys.call_tracing(lambda: _function(*args, **kwargs), ())

    setattr(owner, last, functools.wraps(function)(traced))
    INSTRUMENT["phase"] = True


class GcClock:
    """The collector's CPU time and collections by generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.ms: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.full_during: list[str] = []  # the request kind (or "setup") of each full one

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.started = time.process_time()
        else:
            self.ms[info["generation"]].append((time.process_time() - self.started) * 1000)
            if info["generation"] == 2:
                self.full_during.append(CURRENT["kind"] or "setup")


GC_CLOCK = GcClock()
BETWEEN: dict = {}  # "collect": what a server runs between requests (--server-gc)


class Answer:
    """What ``measure`` keeps of a response (the response itself is dropped)."""

    def __init__(self, response) -> None:
        self.status_code = response.status_code
        self.content = response.content


def server_gc() -> None:
    """What ``kanagame/wsgi.py`` does once the app is loaded: ``warm_up`` (unless
    ``KANAGAME_WARM_UP=0``), then ``gc_tune`` (freeze, thresholds) and the collection between
    requests (unless ``KANAGAME_GC_BETWEEN_REQUESTS=0``: ``measure`` drops the response and
    collects, and counts that in the request's CPU); the test client's modules are imported
    first, so that they are frozen too (a server has none of them)."""
    import gc

    import django.test  # noqa: F401

    from kanagame.warmup import collect_between_requests, gc_tune, warm_up

    if os.environ.get("KANAGAME_WARM_UP", "1") != "0":
        warm_up()
    gc_tune()
    gc.callbacks.append(GC_CLOCK)
    if os.environ.get("KANAGAME_GC_BETWEEN_REQUESTS", "1") != "0":
        BETWEEN["collect"] = collect_between_requests


# --instrument KIND: each request of that kind (or each call of --instrument-phase inside
# one) runs through ``sys.call_tracing``, a C function nothing else in the process calls, so
# that ``valgrind --tool=callgrind --toggle-collect=sys_call_tracing`` counts the instructions
# of exactly those calls (bench/move_callgrind.py)
INSTRUMENT = {"kind": "", "phase": False}


# The CPU of the work a request left for after its response (kanagame/after_response.py:
# the class summaries of a finished game, in eager mode); the test client closes the
# response, so ``measure`` counts it in the request and ``AFTER["ms"]`` says how much it was
AFTER = {"ms": 0.0}


def after_response_clock() -> None:
    try:
        from kanagame import after_response
    except ImportError:  # a tree from before it: everything is in the answer
        return
    real = after_response._run

    def timed(works) -> None:
        started = time.process_time()
        try:
            real(works)
        finally:
            AFTER["ms"] += (time.process_time() - started) * 1000

    after_response._run = timed


def measure(client, method: str, url: str, **kw):
    from django.db import connection

    AFTER["ms"] = 0.0
    queries = Queries()
    started = time.process_time()
    request = getattr(client, method)
    traced = CURRENT["kind"] == INSTRUMENT["kind"] and not INSTRUMENT["phase"]
    with connection.execute_wrapper(queries):
        if traced:
            answer = Answer(sys.call_tracing(lambda: request(url, **kw), ()))
        else:
            answer = Answer(request(url, **kw))
    if "collect" in BETWEEN:
        BETWEEN["collect"]()
    return answer, (time.process_time() - started) * 1000, queries.sql


# ``move_by_stage``: a table's moves in groups of this many, in the order played
STAGE = 5


def run(args) -> dict:
    from django.core.management import call_command
    from django.test import Client

    out = io.StringIO()
    if args.instrument:  # the same deals in every run (table seeds from --seed)
        import random
        import types

        import games.services.tables as tables

        deals = random.Random(args.seed)
        tables.secrets = types.SimpleNamespace(randbits=deals.getrandbits)
        try:
            call_command("seed_load", "--students", str(args.tables), stdout=out)
        finally:
            tables.secrets = secrets
    else:
        call_command("seed_load", "--students", str(args.tables), stdout=out)
    students = json.loads(out.getvalue())["students"]
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    rows: dict[str, list[tuple[float, int]]] = {
        "move": [],  # every move, the work after its response included
        "board": [],
        "poll": [],
        "last_move_answer": [],  # a move that ends its game, until its response is sent
        "last_move_after_response": [],  # and what it left for after (queries not counted)
    }
    by_stage: dict[int, list[float]] = {}  # moves that do not end the game, by stage (STAGE)
    sample_sql: list[str] = []
    profiler = cProfile.Profile() if args.profile else None
    rng = __import__("random").Random(args.seed)
    hx = {"HTTP_HX_REQUEST": "true"}
    for student in students:
        client = Client()
        client.force_login(user_model.objects.get(username=student["username"]))
        url = f"/play/t/{student['table']}/"
        page = client.get(url).content.decode()
        for step in range(args.moves):
            actions = [html.unescape(a) for a in ACTION_RE.findall(page)]
            if not actions or "Game over." in page:
                break
            version = VERSION_RE.search(page).group(1)
            data = {
                "version": version,
                "token": TOKEN_RE.search(page).group(1),
                "action": rng.choice(actions[:8]),
            }
            if profiler and args.kind == "move":
                profiler.enable()
            CURRENT["kind"] = "move"
            # form-urlencoded, as a browser's htmx and bench/load.py post it (the test
            # client's default, multipart, costs the parser more)
            response, cpu, sql = measure(
                client, "post", url, data=urlencode(data), content_type=FORM_TYPE, **hx
            )
            if profiler:
                profiler.disable()
            assert response.status_code == 200, response.status_code
            rows["move"].append((cpu, len(sql)))
            if not sample_sql or len(sql) > len(sample_sql):
                sample_sql = sql
            page = response.content.decode()
            if "Game over." in page:  # the move that ended the game: its answer, then after
                rows["last_move_answer"].append((cpu - AFTER["ms"], len(sql)))
                rows["last_move_after_response"].append((AFTER["ms"], 0))
            else:  # the game goes on (a game-ending move is reported apart, above)
                by_stage.setdefault(step // STAGE, []).append(cpu)
            new_version = VERSION_RE.search(page).group(1)
            # the board partial, as a poll that saw the version before the move gets it
            if profiler and args.kind == "board":
                profiler.enable()
            CURRENT["kind"] = "board"
            response, cpu, sql = measure(client, "get", f"{url}poll/?v={version}", **hx)
            if profiler:
                profiler.disable()
            assert response.status_code in (200, 286), response.status_code
            rows["board"].append((cpu, len(sql)))
            CURRENT["kind"] = "poll"
            response, cpu, sql = measure(client, "get", f"{url}poll/?v={new_version}", **hx)
            if response.status_code == 204:
                rows["poll"].append((cpu, len(sql)))
    result: dict = {"database": "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"}
    for kind, values in rows.items():
        if not values:
            continue
        cpus = sorted(v[0] for v in values)
        result[kind] = {
            "n": len(values),
            "cpu_ms_p10": round(cpus[int(0.10 * len(cpus))], 2),
            "cpu_ms_median": round(statistics.median(cpus), 2),
            "cpu_ms_p95": round(cpus[min(len(cpus) - 1, int(0.95 * len(cpus)))], 2),
            "queries_median": statistics.median(v[1] for v in values),
            "queries_max": max(v[1] for v in values),
        }
    # does a move cost more late in its game (a longer log, more laid families)?
    result["move_by_stage"] = {
        f"{STAGE * stage + 1}-{STAGE * (stage + 1)}": {
            "n": len(cpus),
            "cpu_ms_median": round(statistics.median(cpus), 2),
        }
        for stage, cpus in sorted(by_stage.items())
    }
    if args.phases:
        result["phases_ms_per_request"] = {
            kind: {
                name: round(1000 * total / len(rows[kind]), 2)
                for (of_kind, name), total in PHASE_TIMES.items()
                if of_kind == kind
            }
            for kind in ("move", "board")
            if rows[kind]
        }
    if args.server_gc:
        requests = sum(len(rows[kind]) for kind in ("move", "board", "poll"))
        result["gc"] = {
            "ms_per_request": round(sum(sum(v) for v in GC_CLOCK.ms.values()) / requests, 3),
            "collections": {g: len(v) for g, v in GC_CLOCK.ms.items()},
            "full_ms_median": round(statistics.median(GC_CLOCK.ms[2]), 2)
            if GC_CLOCK.ms[2]
            else None,
            "full_ms_max": round(max(GC_CLOCK.ms[2]), 2) if GC_CLOCK.ms[2] else None,
            "full_during": GC_CLOCK.full_during,
        }
    result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    if args.sql:
        result["move_sql_largest"] = [s[:160] for s in sample_sql]
    if profiler:
        stream = io.StringIO()
        stats = pstats.Stats(profiler, stream=stream)
        stats.sort_stats("cumulative").print_stats(args.profile)
        result["profile"] = stream.getvalue()
        if args.dump:
            profiler.dump_stats(args.dump)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10, help="students, one table each")
    parser.add_argument("--moves", type=int, default=12, help="moves per table at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sql", action="store_true", help="print the SQL of the largest move")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--phases", action="store_true", help="time the main steps")
    parser.add_argument(
        "--phase", action="append", default=[], metavar="MODULE:FUNCTION",
        help="with --phases: time this function (or Class.method) too (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--server-gc", action="store_true",
        help="warm up and tune the GC as kanagame/wsgi.py does; report the GC's CPU",
    )  # fmt: skip
    parser.add_argument("--kind", default="move", choices=("move", "board"), help="profiled")
    parser.add_argument(
        "--instrument", default="", choices=("", "move", "board", "poll"),
        help="run this kind's requests through sys.call_tracing (bench/move_callgrind.py)",
    )  # fmt: skip
    parser.add_argument(
        "--instrument-phase", default="", metavar="MODULE:FUNCTION",
        help="with --instrument: only this function's calls inside those requests",
    )  # fmt: skip
    parser.add_argument("--dump", default="", help="write the cProfile stats to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(folder)
        after_response_clock()
        if args.server_gc:
            server_gc()
        if args.phases:
            phases_install(args.phase)
        INSTRUMENT["kind"] = args.instrument
        if args.instrument and args.instrument_phase:
            instrument_phase(args.instrument_phase)
        result = run(args)
    profile = result.pop("profile", None)
    print(json.dumps(result, indent=2))
    if profile:
        print(profile)


if __name__ == "__main__":
    main()
