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
``--fail-on-error`` any lost, doubled, unmatched or failed task fails the run.

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

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-pass-2026"

VERSION_RE = re.compile(r'data-version="(\d+)"')
TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')
ACTION_RE = re.compile(r'name="action" value="([^"]+)"')
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TIMING_RE = re.compile(r'cpu;dur=([\d.]+), db;desc="queries";dur=(\d+)')
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


def serve(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "kanagame.wsgi",
            "--workers",
            str(workers),
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


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- the simulated students -------------------------------------------------------------------


class Record:
    """Every request, as (kind, client ms, ok, server CPU ms, queries, time.monotonic())."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, bool, float | None, int | None, float]] = []
        self.errors: list[str] = []

    def add(self, kind: str, ms: float, ok: bool, headers, detail: str = "") -> None:
        cpu = queries = None
        match = TIMING_RE.search((headers or {}).get("Server-Timing", "") if headers else "")
        if match:
            cpu, queries = float(match.group(1)), int(match.group(2))
        self.rows.append((kind, ms, ok, cpu, queries, time.monotonic()))
        if not ok:
            self.errors.append(f"{kind}: {detail}"[:300])


class InsecureOk(DefaultCookiePolicy):
    """The server marks its cookies Secure (production settings); the bench speaks plain
    HTTP on loopback, so it sends them back anyway."""

    def return_ok_secure(self, cookie, request) -> bool:  # noqa: ARG002
        return True


def make_user_class(args, students: list[dict], record: Record):
    import gevent
    from locust import FastHttpUser, constant, task

    pending = list(students)

    class Student(FastHttpUser):
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
                record.rows.append(
                    ("reply", (time.perf_counter() - moved_at) * 1000, True, None, None,
                     time.monotonic())
                )  # fmt: skip

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

    return Student


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


def summarise(record: Record, start: float, end: float, args) -> dict:
    window = [r for r in record.rows if start <= r[5] <= end]
    kinds = ("poll", "board", "move", "reply", "page", "reply_poll")
    out: dict = {
        "students": args.students,
        "seconds": round(end - start, 1),
        "rps": round(sum(1 for r in window if r[0] != "reply") / (end - start), 1),
        "errors": len(record.errors),
    }
    for kind in kinds:
        out[kind] = percentiles([r[1] for r in window if r[0] == kind])
    out["login"] = percentiles([r[1] for r in record.rows if r[0] == "login"])
    cpu, queries = {}, {}
    for kind in ("poll", "board", "move", "page", "login"):
        rows = [r for r in (window if kind != "login" else record.rows) if r[0] == kind]
        cpu_values = [r[3] for r in rows if r[3] is not None]
        query_values = [r[4] for r in rows if r[4] is not None]
        if cpu_values:
            cpu[kind] = round(statistics.median(cpu_values), 2)
            cpu[f"{kind}_p95"] = percentiles(cpu_values)["p95"]
        if query_values:
            queries[kind] = round(statistics.median(query_values), 1)
            queries[f"{kind}_max"] = max(query_values)
    # "a poll that finds no change": the 204s among polls (the client saw no board).
    out["cpu_ms_per_request"] = cpu
    out["queries_per_request"] = queries
    return out


def run(args) -> dict:
    from gevent import monkey

    monkey.patch_all()
    import gevent
    from locust.env import Environment

    workdir = Path(tempfile.mkdtemp(prefix="kanagame-load-"))
    procs: list[subprocess.Popen] = []
    result: dict = {}
    try:
        host = args.host
        students: list[dict]
        server_pid = None
        env = server_env(workdir)
        since = datetime.now(UTC).isoformat()
        celery = bool(env.get("REDIS_URL") and args.celery)
        if host is None:
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            seeded = json.loads(manage(env, "seed_load", "--students", str(args.students)))
            students = seeded["students"]
            port = free_port()
            server = serve(env, port, args.workers, workdir / "gunicorn.log")
            procs.append(server)
            server_pid = server.pid
            if celery:
                procs.append(celery_worker(env, workdir / "celery.log"))
                time.sleep(3)
            host = f"http://127.0.0.1:{port}"
        else:
            env = dict(os.environ)
            seeded = json.loads(manage(env, "seed_load", "--students", str(args.students)))
            students = seeded["students"]

        record = Record()
        user_class = make_user_class(args, students, record)
        locust_env = Environment(user_classes=[user_class], host=host)
        runner = locust_env.create_local_runner()
        cpu_before = {}
        runner.start(args.students, spawn_rate=max(1.0, args.students / args.ramp))
        gevent.sleep(args.ramp + 2)
        workers = children(server_pid) if server_pid else []
        cpu_before = {pid: cpu_seconds(pid) for pid in workers}
        start = time.monotonic()
        gevent.sleep(args.seconds)
        end = time.monotonic()
        cpu_after = {pid: cpu_seconds(pid) for pid in workers if Path(f"/proc/{pid}").exists()}
        runner.quit()
        result = summarise(record, start, end, args)
        served = sum(1 for r in record.rows if start <= r[5] <= end and r[0] != "reply")
        if cpu_before:
            total = sum(cpu_after.get(p, 0) - cpu_before[p] for p in cpu_before)
            result["workers"] = {
                "count": len(workers),
                "cpu_s": round(total, 2),
                "cpu_ms_per_request_all": round(1000 * total / max(1, served), 2),
                "rss_mb_after": [round(rss_mb(p), 1) for p in workers if p in cpu_after],
            }
        result["database"] = "postgresql" if env.get("DATABASE_URL") else "sqlite"
        result["celery"] = celery
        if celery and args.host is None:  # our own worker: its log counts the tasks
            audit = tasks_drained(env, since, args.drain)
            result["tasks"] = tasks_account((workdir / "celery.log").read_text(), audit)
        result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
        result["error_samples"] = sorted(set(record.errors))[:10]
    finally:
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
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return result


def main() -> int:
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
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--host", default=None, help="a running server instead of our own")
    parser.add_argument("--celery", action="store_true", help="with REDIS_URL: start a worker")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--fail-on-error", action="store_true")
    args = parser.parse_args()
    if args.ramp is None:
        args.ramp = max(5.0, args.students / 30)
    result = run(args)
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))
    failed = result.get("errors", 1) or not result.get("tasks", {"ok": True})["ok"]
    return 1 if args.fail_on_error and failed else 0


if __name__ == "__main__":
    sys.exit(main())
