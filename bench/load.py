"""A whole school on one small server: the classroom load benchmark (Locust, headless).

    .venv/bin/python bench/load.py --students 30 --seconds 30            # what CI runs
    .venv/bin/python bench/load.py --students 300 --seconds 120 --json   # docs/bench.md
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kanagame_load \\
        .venv/bin/python bench/load.py --students 300 --seconds 120      # PostgreSQL
    .venv/bin/python bench/load.py --host http://127.0.0.1:8000 --students 30  # a running server

Without ``--host`` it prepares a fresh database (a temporary SQLite file, or the database of
``DATABASE_URL``, which it migrates), creates a class of N students each with a solo Kazoku
table (``manage.py seed_load``), and serves the app with gunicorn (``--workers``, production
settings: ``DJANGO_DEBUG=0``, Argon2 hashes, WhiteNoise). With ``REDIS_URL`` set the CPU
players run in Celery workers it starts as well (``--celery``).

Each simulated student logs in through the login page (all of them within ``--ramp`` seconds,
so 30 students log in within the same 5 s in the CI run), opens their table and then, every
``--interval`` seconds, either polls it (``GET .../poll/?v=``, as HTMX does every 2 s) or, one
time in ``1/--move-share``, plays a legal move (the board's first action button). A move
answered while CPU players still have to reply (worker mode) is followed by fast polls until the
board is the student's again: the time from the move to that poll is ``reply``. One tick in
``1/--board-share`` polls with the version before the current one, as a second device one step
behind would: the server answers the board partial. Polls are reported by their answer: ``poll``
(204, nothing changed), ``board`` (the board partial of a poll that found a change, 200 or 286).

Worker mode (``--celery``) counts the CPU players' tasks: after the run, once no table waits for
a CPU player (or ``--drain`` seconds), ``manage.py bots_audit`` reads the runs of CPU moves in
the Move log and the worker's log gives each task run (``bots_play table= version= played=``).
``tasks`` in the output: ``needed`` (runs saved + tables still waiting), ``executed``,
``applied`` (runs that saved moves), ``noop`` (duplicates or late deliveries: nothing saved),
``lost`` (tables left waiting), ``doubled`` (a key applied twice), ``unmatched`` (a run without
its task or a task without its run) and the CPU moves counted both ways; with
``--fail-on-error`` any lost, doubled, unmatched or failed task fails the run. ``tasks`` also
gives the worker's CPU (its process and its pool's, from its start-up to the drain):
``worker_cpu_s``, per task and per CPU move.

**Same-run baseline** (issue 28): with servers of its own the bench also serves a stand-in
Django app of the same request shape (``bench/baseline_app.py``: the same gunicorn, workers,
database, session store and hasher) before and after the product, drives it with the same
scenario (``--baseline-seconds`` each, default half of ``--seconds``) and adds ``baseline``
(the same keys) and ``ratio`` (``poll_p95``, ``poll_p99``, ``move_p95``, ``move_p99``,
``move_cpu``: product ÷ baseline) to the output; a line on stderr prints the ratios.
``--no-baseline`` skips it. ``--threads N`` serves both apps with gunicorn's gthread workers
of N threads (``--workers`` of them; default: sync workers, one request at a time). The
measured window opens once every student has opened their table and the server has caught up
with the ramp-up (a second in which no answered request waited ``CAUGHT_UP_MS`` for a worker, at
most ``CATCH_UP_MAX_S`` later: ``seated_s``, ``window_opened_s``, ``caught_up`` in the output;
``--no-catch-up``: once every table is open, session 28's rule; ``--window-at-ramp``: at
ramp + 2 s, as before). ``--nodes N --ports A,B`` serves N
gunicorn instances on one database; ``--host`` may be repeated (students spread evenly).
``--timeline FILE`` writes per-second lines (latency, log-ins in flight, queueing, GC, SQLite
checkpoints, CPU); ``tail`` explains the requests at or above each kind's p99.

Requests are timed from the client, and the server reports, per request, its CPU time and its
SQL query count in a ``Server-Timing`` header (``KANAGAME_SERVER_TIMING=1``,
``kanagame/server_timing.py``). Figures are taken after ramp-up (logins: during it). Printed:
percentiles per request kind, requests/s, errors, CPU ms and queries per request kind, the
workers' CPU seconds and memory after the run, and the load average. ``--json`` prints one
object (the shape the issue asks for, plus details); the exit code is 1 on any error when
``--fail-on-error`` is given (CI).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from html import unescape
from html.parser import HTMLParser
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import NamedTuple
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-pass-2026"

VERSION_RE = re.compile(r'data-version="(\d+)"')
TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')
ACTION_RE = re.compile(r'name="action" value="([^"]+)"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TIMING_RE = re.compile(
    r'cpu;dur=([\d.]+), db;desc="queries";dur=(\d+)'
    r"(?:, app;dur=([\d.]+), gc;dur=([\d.]+))?(?:, sql;dur=([\d.]+))?"
)
TASK_RE = re.compile(r"bots_play table=(\d+) version=(\d+) played=(\d+)")
TASK_FAILED_RE = re.compile(r"Task games\.bots_play\[[^\]]*\] raised")


# --- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",  # plain HTTP on loopback; the cookies stay Secure
        KANAGAME_SERVER_TIMING="1",
        DJANGO_LOG_LEVEL="ERROR",
        PYTHONUNBUFFERED="1",
    )
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(workdir / "load.sqlite3")
    # A Celery queue of this run's own: a worker already running on the same Redis (CI's)
    # does not take our tasks, so our worker's log counts them all.
    env["KANAGAME_CELERY_QUEUE"] = f"load-{workdir.name}"
    return env


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


# gthread workers keep a connection open between requests (sync ones close it after each):
# with gunicorn's default 2 s keep-alive and a client that asks every 2 s, the server closes a
# connection as the client sends on it, and the POST fails (HTTP 0, 9 moves of each app in a
# 300-student run); a proxy's own keep-alive is longer (nginx: 75 s), and so is this one.
THREADED = ["--worker-class", "gthread", "--keep-alive", "75"]


def serve(
    env: dict[str, str],
    port: int,
    workers: int,
    log: Path,
    app: str = "product",
    threads: int = 1,
) -> subprocess.Popen:
    """gunicorn serving the product (``kanagame.wsgi``) or the baseline (``baseline_app``):
    ``workers`` sync workers, or with ``threads`` > 1 as many gthread workers of that many
    threads each (a request waiting on the database no longer holds its worker)."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    target = ["kanagame.wsgi"]
    if app == "baseline":
        env = {**env, "DJANGO_SETTINGS_MODULE": "baseline_settings"}
        target = ["--pythonpath", str(ROOT / "bench"), "baseline_app:application"]
    proc = subprocess.Popen(
        [
            str(gunicorn),
            *target,
            "--workers",
            str(workers),
            *(THREADED + ["--threads", str(threads)] if threads > 1 else []),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "/dev/null",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit(f"gunicorn exited:\n{log.read_text()[-3000:]}") from None
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start within 30 s")


def warm_up(host: str, workers: int, seconds: float = 120) -> None:
    """Wait until every worker has loaded the app: rounds of ``2 × workers`` concurrent
    requests to the login page until one round is all answered within 2 s (a worker
    imports the app at its first request's time on a busy machine, seconds at load 10)."""
    import gevent

    def fetch() -> float:
        started = time.monotonic()
        with urlopen(f"{host}/login/", timeout=60) as resp:
            resp.read()
        return time.monotonic() - started

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        jobs = [gevent.spawn(fetch) for _ in range(2 * workers)]
        gevent.joinall(jobs)
        if all(job.successful() and job.value < 2.0 for job in jobs):
            return
    raise SystemExit(f"{host} did not answer its login page within 2 s in {seconds} s")


def celery_worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    celery = Path(sys.executable).with_name("celery")
    return subprocess.Popen(
        [str(celery), "-A", "kanagame", "worker", "--loglevel=INFO", "--concurrency=2"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def children(pid: int) -> list[int]:
    """The gunicorn workers (children of the arbiter)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """The CPU seconds of a process and its children alive now (a Celery worker and its
    pool's processes; a child that exited has taken its seconds with it)."""
    return sum(cpu_seconds(p) for p in (pid, *children(pid)) if Path(f"/proc/{p}").exists())


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- the simulated students -------------------------------------------------------------------


class Record:
    """Every request, as a ``Row``: its kind, the client's ms, ok, and from ``Server-Timing``
    the server's CPU ms, queries, wall ms in the app and ms of garbage collection; ``t`` is
    ``time.monotonic()`` when the answer arrived."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.errors: list[str] = []

    def add(self, kind: str, ms: float, ok: bool, headers, detail: str = "") -> None:
        cpu = queries = app = gc_ms = sql = None
        match = TIMING_RE.search((headers or {}).get("Server-Timing", "") if headers else "")
        if match:
            cpu, queries = float(match.group(1)), int(match.group(2))
            if match.group(3) is not None:
                app, gc_ms = float(match.group(3)), float(match.group(4))
            if match.group(5) is not None:
                sql = float(match.group(5))
        self.rows.append(Row(kind, ms, ok, cpu, queries, time.monotonic(), app, gc_ms, sql))
        if not ok:
            self.errors.append(f"{kind}: {detail}"[:300])


class Row(NamedTuple):
    kind: str
    ms: float
    ok: bool
    cpu: float | None
    queries: int | None
    t: float
    app: float | None = None
    gc: float | None = None
    sql: float | None = None


class InsecureOk(DefaultCookiePolicy):
    """The server marks its cookies Secure (production settings); the bench speaks plain
    HTTP on loopback, so it sends them back anyway."""

    def return_ok_secure(self, cookie, request) -> bool:  # noqa: ARG002
        return True


def make_user_classes(args, students: list[dict], record: Record, hosts: list[str]) -> list:
    """One Locust user class per host, of equal weight: the students spread evenly."""
    import gevent
    from locust import FastHttpUser, constant, task

    pending = list(students)

    class Student(FastHttpUser):
        abstract = True
        wait_time = constant(0)
        network_timeout = 60.0
        connection_timeout = 60.0

        def on_start(self) -> None:
            self.client.cookiejar.set_policy(InsecureOk())
            self.me = pending.pop()
            self.version, self.token, self.actions, self.over = "0", "", [], False
            self.rng = __import__("random").Random(self.me["username"])
            self.login()
            self.open_table()

        # each request helper records (kind, ms, ok, timing header)
        def _request(self, kind: str, method: str, url: str, ok_codes=(200,), **kw):
            started = time.perf_counter()
            kw.setdefault("allow_redirects", False)
            with self.client.request(method, url, catch_response=True, **kw) as resp:
                ms = (time.perf_counter() - started) * 1000
                ok = resp.status_code in ok_codes
                if kind in ("poll", "reply_poll") and resp.status_code in (200, 286):
                    kind = "board"  # the poll found a change: the board partial
                detail = f"HTTP {resp.status_code} {url} {(resp.text or '')[:120]!r}"
                record.add(kind, ms, ok, resp.headers, detail)
                if ok:
                    resp.success()
                else:
                    resp.failure(f"HTTP {resp.status_code}")
                return resp

        def login(self) -> None:
            page = self._request("login_page", "GET", "/login/")
            csrf = CSRF_RE.search(page.text or "")
            self._request(
                "login",
                "POST",
                "/login/",
                ok_codes=(302,),
                data={
                    "csrfmiddlewaretoken": csrf.group(1) if csrf else "",
                    "username": self.me["username"],
                    "password": PASSWORD,
                },
                headers={"Referer": f"{self.host}/login/"},
            )

        def read_board(self, text: str) -> None:
            if m := VERSION_RE.search(text):
                self.version = m.group(1)
            if m := TOKEN_RE.search(text):
                self.token = m.group(1)
            self.actions = [unescape(a) for a in ACTION_RE.findall(text)]
            self.csrf = (CSRF_RE.search(text) or self._csrf_none).group(1)

        class _NoCsrf:
            @staticmethod
            def group(_i):
                return ""

        _csrf_none = _NoCsrf()

        def open_table(self) -> None:
            resp = self._request("page", "GET", f"/play/t/{self.me['table']}/")
            self.read_board(resp.text or "")

        def poll(self, kind: str = "poll", behind: bool = False) -> int:
            version = str(int(self.version) - 1) if behind else self.version
            resp = self._request(
                kind,
                "GET",
                f"/play/t/{self.me['table']}/poll/?v={version}",
                ok_codes=(200, 204, 286),
                headers={"HX-Request": "true"},
            )
            if resp.status_code in (200, 286):
                self.read_board(resp.text or "")
            if resp.status_code == 286:
                self.over = True
            return resp.status_code

        def move(self) -> None:
            action = self.rng.choice(self.actions[:8])
            moved_at = time.perf_counter()
            resp = self._request(
                "move",
                "POST",
                f"/play/t/{self.me['table']}/",
                data={
                    "csrfmiddlewaretoken": self.csrf,
                    "version": self.version,
                    "token": self.token,
                    "action": action,
                },
                headers={"HX-Request": "true", "Referer": f"{self.host}/play/"},
            )
            self.read_board(resp.text or "")
            # Worker mode: the CPU players answer in Celery; poll fast until it is our turn.
            waited = 0
            while not self.actions and not self.over and waited < 100:
                gevent.sleep(0.1)
                self.poll("reply_poll")
                waited += 1
            if self.actions or self.over:
                ms = (time.perf_counter() - moved_at) * 1000
                record.rows.append(Row("reply", ms, True, None, None, time.monotonic()))

        @task
        def tick(self) -> None:
            gevent.sleep(args.interval * (0.8 + 0.4 * self.rng.random()))
            if self.over:
                self.new_table()
            elif self.actions and self.rng.random() < args.move_share:
                self.move()
            elif self.rng.random() < args.board_share:
                self.poll(behind=True)  # a second device, one step behind: the board
            else:
                self.poll()

        def new_table(self) -> None:
            """The game ended: start another solo game, as a student would."""
            page = self._request("new_page", "GET", "/play/new/kazoku-families/")
            form = form_defaults(page.text or "")
            resp = self._request(
                "new_table",
                "POST",
                "/play/new/kazoku-families/",
                ok_codes=(302,),
                data=form,
                headers={"Referer": f"{self.host}/play/"},
            )
            location = resp.headers.get("Location", "") if resp.headers else ""
            if m := re.search(r"/play/t/([^/]+)/", location):
                self.me = {**self.me, "table": m.group(1)}
                self.over = False
                self.open_table()

    return [
        type(f"Student{i}", (Student,), {"host": host, "abstract": False})
        for i, host in enumerate(hosts)
    ]


class FormDefaults(HTMLParser):
    """The values a browser would submit for the page's forms left at their defaults."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.values.setdefault(name, a.get("value") or "")
        elif tag == "select" and name:
            self._select, self._first = name, None
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = a.get("value", "")
                self.values.setdefault(self._select, self._first)
            if "selected" in a:
                self.values[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def form_defaults(html: str) -> dict[str, str]:
    parser = FormDefaults()
    parser.feed(html)
    return parser.values


# --- worker mode: task accounting ------------------------------------------------------------


def tasks_account(log_text: str, audit: dict) -> dict:
    """Bot tasks run by the worker (its log) against the runs of CPU moves saved (the audit).

    A task keyed ``(table, version)`` that saved moves saved exactly one run of consecutive
    CPU moves from ``version``; a duplicate or a late one saves nothing (``played=0``).
    """
    tables = set(audit.get("table_ids", []))
    executions = [
        (int(t), int(v), int(n))
        for t, v, n in TASK_RE.findall(log_text)
        if not tables or int(t) in tables
    ]
    applied: dict[tuple[int, int], int] = {}
    for table, version, played in executions:
        if played:
            applied[(table, version)] = applied.get((table, version), 0) + 1
    runs = {tuple(key) for key in audit["runs"]}
    result = {
        "needed": len(runs) + len(audit["waiting"]),
        "executed": len(executions),
        "applied": sum(applied.values()),
        "noop": sum(1 for *_key, played in executions if not played),
        "failed": len(TASK_FAILED_RE.findall(log_text)),
        "lost": len(audit["waiting"]),
        "doubled": sum(n - 1 for n in applied.values() if n > 1),
        "unmatched": len(runs ^ set(applied)),
        "bot_moves": audit["bot_moves"],
        "bot_moves_logged": sum(played for *_key, played in executions),
    }
    result["ok"] = (
        result["lost"] == result["doubled"] == result["unmatched"] == result["failed"] == 0
        and result["bot_moves"] == result["bot_moves_logged"]
    )
    return result


def tasks_drained(env: dict[str, str], since: str, seconds: float) -> dict:
    """The audit once no table waits for a CPU player, or after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        audit = json.loads(manage(env, "bots_audit", "--since", since))
        if not audit["waiting"] or time.monotonic() > deadline:
            return audit
        time.sleep(1.0)


# --- the run ----------------------------------------------------------------------------------


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"n": len(ordered), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99),
            "max": round(ordered[-1], 1)}  # fmt: skip


def in_windows(row: Row, windows: list[tuple[float, float]]) -> bool:
    return any(start <= row.t <= end for start, end in windows)


def summarise(rows: list[Row], windows: list[tuple[float, float]], args, errors: int) -> dict:
    """Percentiles, requests/s, CPU and queries per request kind over the measured windows
    (log-ins: over the whole run, they happen during the ramp-up)."""
    window = [r for r in rows if in_windows(r, windows)]
    seconds = sum(end - start for start, end in windows)
    out: dict = {
        "students": args.students,
        "midgame": args.midgame,
        "threads": getattr(args, "threads", 1),
        "seconds": round(seconds, 1),
        "rps": round(sum(1 for r in window if r.kind != "reply") / seconds, 1),
        "errors": errors,
    }
    for kind in ("poll", "board", "move", "reply", "page", "reply_poll"):
        out[kind] = percentiles([r.ms for r in window if r.kind == kind])
    out["login"] = percentiles([r.ms for r in rows if r.kind == "login"])
    cpu, queries = {}, {}
    for kind in ("poll", "board", "move", "page", "login"):
        kind_rows = [r for r in (window if kind != "login" else rows) if r.kind == kind]
        cpu_values = [r.cpu for r in kind_rows if r.cpu is not None]
        query_values = [r.queries for r in kind_rows if r.queries is not None]
        if cpu_values:
            cpu[kind] = round(statistics.median(cpu_values), 2)
            cpu[f"{kind}_p95"] = percentiles(cpu_values)["p95"]
        if query_values:
            queries[kind] = round(statistics.median(query_values), 1)
            queries[f"{kind}_max"] = max(query_values)
    out["cpu_ms_per_request"] = cpu
    out["queries_per_request"] = queries
    return out


def ratios(product: dict, baseline: dict) -> dict:
    """The product's figures over the baseline's of the same run (issue 28's goals)."""

    def over(a, b):
        return round(a / b, 2) if a is not None and b else None

    out = {
        f"{kind}_{q}": over(product[kind][q], baseline[kind][q])
        for kind in ("poll", "move")
        for q in ("p95", "p99")
    }
    out["move_cpu"] = over(
        product["cpu_ms_per_request"].get("move"), baseline["cpu_ms_per_request"].get("move")
    )
    return out


# --- where the slowest requests spent their time ---------------------------------------------


def started_at(row: Row) -> float:
    return row.t - row.ms / 1000


# The measured window waits for the server to catch up with the ramp-up: one second in which no
# answered request waited this long before the app saw it, at most CATCH_UP_MAX_S after the
# last table opened (then the window opens anyway, and ``caught_up`` says false).
CAUGHT_UP_MS = 100.0
CATCH_UP_MAX_S = 30.0


def caught_up(rows: list[Row], now: float, limit_ms: float = CAUGHT_UP_MS) -> bool:
    """Whether every request answered in the second before ``now`` (``app`` known: the
    server's, log-ins aside) waited less than ``limit_ms`` for a worker (client ms minus
    ``app``), so that no backlog of the ramp-up is left in the server's queue. ``rows`` are in
    the order answered; only their tail is read."""
    waits = []
    for row in reversed(rows):
        if row.t < now - 1.0:
            break
        if row.app is not None and row.kind != "login" and row.t <= now:
            waits.append(row.ms - row.app)
    return bool(waits) and max(waits) < limit_ms


def tail_causes(rows: list[Row], windows, checkpoints: list[float]) -> dict:
    """The requests at or above their kind's p99, explained by what the server reported.

    ``queued``: most of the latency was spent before the app saw the request (client ms minus
    ``app`` ms: waiting for a free worker, or for the client's own loop); ``in_app_waiting``:
    most of it inside the app but not on its CPU (a lock, the disk, or descheduled by the OS);
    ``in_sql``: most of it in the database driver (SQLite's write lock, PostgreSQL's answer);
    ``in_app_cpu``: most of it the request's own CPU; ``gc``: the collector ran ≥ 25 % of it;
    ``checkpoint``: a SQLite WAL checkpoint completed while it was in flight; ``login``: a
    log-in was in flight at the same time; ``before_window``: sent before the measured window
    opened (the ramp-up's backlog, answered inside the window).
    """
    logins = [(started_at(r), r.t) for r in rows if r.kind == "login"]
    out: dict = {}
    for kind in ("poll", "move"):
        kind_rows = [r for r in rows if r.kind == kind and in_windows(r, windows)]
        timed = [r for r in kind_rows if r.app is not None]
        if len(timed) < 20:
            continue
        ordered = sorted(r.ms for r in kind_rows)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        slow = [r for r in timed if r.ms >= p99]
        if not slow:
            continue

        def share(test, slow=slow) -> int:
            return sum(1 for r in slow if test(r))

        out[kind] = {
            "p99_ms": round(p99, 1),
            "n": len(slow),
            "queued": share(lambda r: r.ms - r.app >= r.ms / 2),
            "in_app_waiting": share(lambda r: r.app - r.cpu >= r.ms / 2),
            "in_sql": share(lambda r: (r.sql or 0) >= r.ms / 2),
            "in_app_cpu": share(lambda r: r.cpu >= r.ms / 2),
            "gc": share(lambda r: r.gc >= r.ms / 4),
            "checkpoint": share(
                lambda r: any(started_at(r) - 0.1 <= c <= r.t + 0.1 for c in checkpoints)
            ),
            "login": share(lambda r: any(a < r.t and b > started_at(r) for a, b in logins)),
            "before_window": share(
                lambda r: any(a <= r.t <= b and started_at(r) < a for a, b in windows)
            ),
            "median_ms": {
                name: round(statistics.median(values), 1)
                for name, values in (
                    ("latency", [r.ms for r in slow]),
                    ("queued", [r.ms - r.app for r in slow]),
                    ("app", [r.app for r in slow]),
                    ("cpu", [r.cpu for r in slow]),
                    ("gc", [r.gc for r in slow]),
                    ("sql", [r.sql or 0 for r in slow]),
                )
            },
            "all_median_ms": {
                "queued": round(statistics.median(r.ms - r.app for r in timed), 1),
                "app": round(statistics.median(r.app for r in timed), 1),
            },
        }
    return out


def wal_sequence(wal: Path | None) -> int | None:
    """The checkpoint sequence number in a SQLite WAL file's header (bytes 12–15): it grows
    by one each time a checkpoint completed and the next writer restarted the log."""
    try:
        with wal.open("rb") as handle:
            header = handle.read(16)
    except (OSError, AttributeError):
        return None
    return int.from_bytes(header[12:16], "big") if len(header) == 16 else None


class Sampler:
    """Every 0.25 s: the load average, the servers' and this client's CPU seconds, the WAL."""

    def __init__(self, wal: Path | None) -> None:
        self.wal = wal
        self.samples: list[dict] = []
        self.checkpoints: list[float] = []
        self.pids: list[int] = []

    def run(self) -> None:
        import gevent

        last = wal_sequence(self.wal)
        while True:
            seq = wal_sequence(self.wal)
            now = time.monotonic()
            if seq is not None and last is not None and seq != last:
                self.checkpoints.append(now)
            last = seq
            self.samples.append(
                {
                    "t": now,
                    "load1": os.getloadavg()[0],
                    "servers_cpu": sum(
                        cpu_seconds(p) for p in self.pids if Path(f"/proc/{p}").exists()
                    ),
                    "client_cpu": time.process_time(),
                }
            )
            gevent.sleep(0.25)


def timeline(rows: list[Row], sampler: Sampler, origin: float) -> list[dict]:
    """One line per second of a phase: latency against log-ins, checkpoints, GC, queueing,
    the servers' and the client's CPU (cores used) and the load average."""
    seconds: dict[int, list[Row]] = {}
    for r in rows:
        seconds.setdefault(int(r.t - origin), []).append(r)
    samples: dict[int, list[dict]] = {}
    for sample in sampler.samples:
        samples.setdefault(int(sample["t"] - origin), []).append(sample)
    logins = [(started_at(r) - origin, r.t - origin) for r in rows if r.kind == "login"]
    lines = []
    for second in sorted(set(seconds) | set(samples)):
        in_second = seconds.get(second, [])
        polls = [r.ms for r in in_second if r.kind == "poll"]
        moves = [r.ms for r in in_second if r.kind == "move"]
        timed = [r for r in in_second if r.app is not None]
        own = samples.get(second, [])
        line = {
            "t": second,
            "n": len(in_second),
            "poll_p50": percentiles(polls)["p50"],
            "poll_max": percentiles(polls)["max"],
            "move_max": percentiles(moves)["max"],
            "logins_in_flight": sum(1 for a, b in logins if a < second + 1 and b > second),
            "queued_max": round(max((r.ms - r.app for r in timed), default=0), 1),
            "gc_ms": round(sum(r.gc for r in timed), 1),
            "checkpoints": sum(1 for c in sampler.checkpoints if int(c - origin) == second),
        }
        if len(own) >= 2:
            span = own[-1]["t"] - own[0]["t"]
            line["servers_cores"] = round(
                (own[-1]["servers_cpu"] - own[0]["servers_cpu"]) / span, 2
            )
            line["client_cores"] = round((own[-1]["client_cpu"] - own[0]["client_cpu"]) / span, 2)
            line["load1"] = round(own[-1]["load1"], 2)
        lines.append(line)
    return lines


# --- one phase: servers up, the class plays, servers down --------------------------------------


def drive(args, hosts: list[str], students: list[dict], servers: list[int], seconds: float,
          wal: Path | None) -> dict:  # fmt: skip
    """The Locust scenario against ``hosts``: ramp-up, then ``seconds`` measured."""
    import gevent
    from locust.env import Environment

    record = Record()
    locust_env = Environment(user_classes=make_user_classes(args, students, record, hosts))
    runner = locust_env.create_local_runner()
    sampler = Sampler(wal)
    sampler.pids = [pid for server in servers for pid in children(server)]  # warmed up
    sampling = gevent.spawn(sampler.run)
    origin = time.monotonic()
    load_before = os.getloadavg()[0]
    runner.start(args.students, spawn_rate=max(1.0, args.students / args.ramp))
    gevent.sleep(args.ramp + 2)
    # The window opens once every student has opened their table (log-ins queued behind the
    # ramp-up would otherwise spill into it), unless --window-at-ramp asks for the old rule.
    while not args.window_at_ramp and time.monotonic() - origin < args.ramp + 120:
        if sum(1 for r in record.rows if r.kind == "page") >= args.students:
            break
        gevent.sleep(0.25)
    seated_after = time.monotonic() - origin
    # ... and once the server has answered the ramp-up's backlog (the requests queued behind
    # the log-ins are answered seconds after the last table opened), unless --no-catch-up.
    # None: not checked (--no-catch-up, --window-at-ramp).
    caught: bool | None = None
    if not (args.window_at_ramp or args.no_catch_up):
        caught = caught_up(record.rows, time.monotonic())
        while not caught and time.monotonic() - origin < seated_after + CATCH_UP_MAX_S:
            gevent.sleep(0.25)
            caught = caught_up(record.rows, time.monotonic())
    opened_after = time.monotonic() - origin
    workers = [pid for server in servers for pid in children(server)]
    cpu_before = {pid: cpu_seconds(pid) for pid in workers}
    start = time.monotonic()
    gevent.sleep(seconds)
    end = time.monotonic()
    cpu_after = {pid: cpu_seconds(pid) for pid in workers if Path(f"/proc/{pid}").exists()}
    runner.quit()
    sampling.kill()
    served = sum(1 for r in record.rows if start <= r.t <= end and r.kind != "reply")
    total = sum(cpu_after.get(p, 0) - cpu_before[p] for p in cpu_before)
    return {
        "record": record,
        "window": (start, end),
        "served": served,
        "cpu_s": total,
        "rss_mb_after": [round(rss_mb(p), 1) for p in workers if p in cpu_after],
        "workers": len(workers),
        "loadavg": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "window_opened_s": round(opened_after, 1),
        "seated_s": round(seated_after, 1),
        "caught_up": caught,
        "timeline": timeline(record.rows, sampler, origin),
        "checkpoints": sampler.checkpoints,
    }


def phase_result(phases: list[dict], args) -> dict:
    """One summary of one or more phases of the same app (the baseline runs twice)."""
    rows = [row for p in phases for row in p["record"].rows]
    windows = [p["window"] for p in phases]
    errors = sum(len(p["record"].errors) for p in phases)
    result = summarise(rows, windows, args, errors)
    checkpoints = [c for p in phases for c in p["checkpoints"]]
    result["tail"] = tail_causes(rows, windows, checkpoints)
    result["checkpoints"] = sum(1 for c in checkpoints if any(a <= c <= b for a, b in windows))
    if any(p["workers"] for p in phases):
        cpu_s = sum(p["cpu_s"] for p in phases)
        result["workers"] = {
            "count": phases[0]["workers"],
            "cpu_s": round(cpu_s, 2),
            "cpu_ms_per_request_all": round(
                1000 * cpu_s / max(1, sum(p["served"] for p in phases)), 2
            ),
            "rss_mb_after": phases[-1]["rss_mb_after"],
        }
    result["loadavg_phases"] = [p["loadavg"] for p in phases]
    result["window_opened_s"] = [p["window_opened_s"] for p in phases]
    result["seated_s"] = [p["seated_s"] for p in phases]
    result["caught_up"] = [p["caught_up"] for p in phases]
    result["error_samples"] = sorted({e for p in phases for e in p["record"].errors})[:10]
    return result


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for proc in procs:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def run(args) -> dict:
    from gevent import monkey

    monkey.patch_all()

    workdir = Path(tempfile.mkdtemp(prefix="kanagame-load-"))
    env = server_env(workdir)
    own = not args.host
    celery = bool(env.get("REDIS_URL") and args.celery)
    since = datetime.now(UTC).isoformat()  # the audit counts the tables seeded from now on
    seed_args = ["--students", str(args.students), "--midgame", str(args.midgame)]
    wal = None
    try:
        if own:
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            seeded = json.loads(manage(env, "seed_load", *seed_args))
            ports = args.ports or [free_port() for _ in range(args.nodes)]
            hosts = [f"http://127.0.0.1:{port}" for port in ports]
            if not env.get("DATABASE_URL"):
                wal = Path(env["SQLITE_PATH"] + "-wal")
            if args.baseline:
                baseline_prepare(env, seeded)
        else:
            env = dict(os.environ)
            seeded = json.loads(manage(env, "seed_load", *seed_args))
            hosts, ports = args.host, []
        students = seeded["students"]
        baseline_seconds = args.baseline_seconds or max(10.0, args.seconds / 2)
        order = ["baseline", "product", "baseline"] if own and args.baseline else ["product"]
        done: dict[str, list[dict]] = {"baseline": [], "product": []}
        tasks = None
        for app in order:
            procs = [
                serve(env, port, args.workers, workdir / f"{app}-{i}.log", app, args.threads)
                for i, port in enumerate(ports)
            ]
            for host in hosts if own else []:
                warm_up(host, args.workers)
            servers = [p.pid for p in procs]  # gunicorn's arbiters, not the Celery worker
            try:
                if app == "product" and celery:
                    procs.append(celery_worker(env, workdir / "celery.log"))
                    time.sleep(3)
                    worker_cpu = tree_cpu_seconds(procs[-1].pid)  # its start-up, before tasks
                seconds = args.seconds if app == "product" else baseline_seconds
                done[app].append(drive(args, hosts, students, servers, seconds, wal))
                if app == "product" and celery:  # our own worker: its log counts the tasks
                    audit = tasks_drained(env, since, args.drain)
                    tasks = tasks_account((workdir / "celery.log").read_text(), audit)
                    # what the CPU players' replies cost the worker (docs/architecture.md's
                    # sizing of the worker hosts), per task and per CPU move
                    worker_cpu = tree_cpu_seconds(procs[-1].pid) - worker_cpu
                    tasks["worker_cpu_s"] = round(worker_cpu, 2)
                    tasks["worker_cpu_ms_per_task"] = round(
                        1000 * worker_cpu / max(1, tasks["executed"]), 2
                    )
                    tasks["worker_cpu_ms_per_bot_move"] = round(
                        1000 * worker_cpu / max(1, tasks["bot_moves_logged"]), 2
                    )
            finally:
                stop(procs)
        result = phase_result(done["product"], args)
        result["database"] = "postgresql" if env.get("DATABASE_URL") else "sqlite"
        result["celery"] = celery
        result["nodes"] = len(hosts)
        if tasks is not None:
            result["tasks"] = tasks
        if done["baseline"]:
            result["baseline"] = phase_result(done["baseline"], args)
            result["ratio"] = ratios(result, result["baseline"])
        result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
        if args.timeline:
            Path(args.timeline).write_text(
                json.dumps({app: [p["timeline"] for p in runs] for app, runs in done.items()})
            )
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return result


def baseline_prepare(env: dict[str, str], seeded: dict) -> None:
    """The baseline app's tables, one per student with the product table's code."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "baseline_app.py"), "prepare"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "baseline_settings"},
        input=json.dumps(seeded),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"baseline_app.py prepare failed:\n{result.stderr[-3000:]}")


def ratio_line(result: dict) -> str:
    ratio = result.get("ratio")
    if not ratio:
        return "no same-run baseline (a server of our own is needed: no --host)"
    parts = ", ".join(f"{k.replace('_', ' ')} {v}×" for k, v in ratio.items())
    base = result["baseline"]
    return (
        f"product / same-run baseline: {parts} (baseline poll p95 {base['poll']['p95']} ms, "
        f"move p95 {base['move']['p95']} ms, move CPU {base['cpu_ms_per_request'].get('move')} "
        f"ms; load {result['loadavg'][0]})"
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30, help="measured, after ramp-up")
    parser.add_argument("--ramp", type=float, default=None, help="seconds to log everyone in")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between requests")
    parser.add_argument("--move-share", type=float, default=0.2, help="share of ticks that move")
    parser.add_argument(
        "--board-share", type=float, default=0.05, help="share of ticks polling one step behind"
    )
    parser.add_argument("--drain", type=float, default=30, help="worker mode: wait for tasks")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per node")
    parser.add_argument(
        "--threads", type=int, default=1,
        help="threads per worker, both apps (> 1: gunicorn's gthread workers; default: sync)",
    )  # fmt: skip
    parser.add_argument(
        "--host", action="append", default=None,
        help="a running server instead of our own; repeat it to spread students over hosts",
    )  # fmt: skip
    parser.add_argument("--nodes", type=int, default=1, help="our own gunicorn instances")
    parser.add_argument(
        "--ports", type=lambda text: [int(p) for p in text.split(",")], default=None,
        help="ports of our own nodes, comma-separated (default: free ports)",
    )  # fmt: skip
    parser.add_argument(
        "--no-baseline", dest="baseline", action="store_false",
        help="skip the same-run baseline (bench/baseline_app.py) before and after",
    )  # fmt: skip
    parser.add_argument(
        "--baseline-seconds", type=float, default=None,
        help="measured seconds of each baseline run (default: half of --seconds, at least 10)",
    )  # fmt: skip
    parser.add_argument(
        "--window-at-ramp", action="store_true",
        help="open the measured window at ramp + 2 s even if log-ins are still queued",
    )  # fmt: skip
    parser.add_argument(
        "--no-catch-up", action="store_true",
        help="open the window once every table is open, without waiting for the server to "
        "answer the ramp-up's backlog (session 28's rule)",
    )  # fmt: skip
    parser.add_argument("--timeline", default=None, help="write per-second timelines (JSON)")
    parser.add_argument("--celery", action="store_true", help="with REDIS_URL: start a worker")
    parser.add_argument(
        "--midgame", type=int, default=0, metavar="N",
        help="tables start part-way through their games (seed_load --midgame): games end "
        "all through the run, as in a lesson; not with --celery (the seeding's CPU moves "
        "would have no task for the audit)",
    )  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--fail-on-error", action="store_true")
    args = parser.parse_args(argv)
    if args.ramp is None:
        args.ramp = max(5.0, args.students / 30)
    if args.ports and len(args.ports) != args.nodes:
        args.nodes = len(args.ports)
    if args.midgame and args.celery:
        parser.error("--midgame seeds CPU moves inline: not with --celery (the task audit)")
    if args.threads < 1:
        parser.error("--threads: at least 1")
    return args


def main() -> int:
    args = parse_args()
    result = run(args)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    print(ratio_line(result), file=sys.stderr)
    errors = result.get("errors", 1) + result.get("baseline", {}).get("errors", 0)
    failed = errors or not result.get("tasks", {"ok": True})["ok"]
    return 1 if args.fail_on_error and failed else 0


if __name__ == "__main__":
    sys.exit(main())
