"""``Server-Timing`` on every response, for the load benchmark (``bench/load.py``).

Enabled by ``KANAGAME_SERVER_TIMING=1`` (off by default: a production server does not tell
clients what it costs). Each response then carries::

    Server-Timing: cpu;dur=1.234, db;desc="queries";dur=2, app;dur=1.500, gc;dur=0.000,
        sql;dur=0.210

``cpu`` is the CPU time the request's thread spent on it in milliseconds (``time.thread_time``:
exact for gunicorn's sync workers and for its gthread workers, whose other threads' requests
``time.process_time`` would count too), ``db`` the number
of SQL queries it ran, ``app`` the wall time from this middleware in to out (the client's
latency minus ``app`` is the time the request waited for a worker, plus the network), and
``gc`` the wall time the cyclic garbage collector ran during the request and ``sql`` the wall
time spent in the database driver (a lock, the disk, the server's answer, the network). The
bench reads them per request kind and uses the last three to explain its slowest requests.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse


class _QueryCounter:
    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started


class _GcClock:
    """The garbage collector's wall time in this process, from ``gc.callbacks``."""

    def __init__(self) -> None:
        self.total = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict) -> None:  # noqa: ARG002
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started:
            self.total += time.perf_counter() - self._started
            self._started = 0.0


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.gc_clock = _GcClock()
        gc.callbacks.append(self.gc_clock)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        counter = _QueryCounter()
        gc_before = self.gc_clock.total
        wall = time.perf_counter()
        started = time.thread_time()
        with connection.execute_wrapper(counter):
            response = self.get_response(request)
        cpu_ms = (time.thread_time() - started) * 1000
        app_ms = (time.perf_counter() - wall) * 1000
        gc_ms = (self.gc_clock.total - gc_before) * 1000
        response["Server-Timing"] = (
            f'cpu;dur={cpu_ms:.3f}, db;desc="queries";dur={counter.count}, '
            f"app;dur={app_ms:.3f}, gc;dur={gc_ms:.3f}, sql;dur={counter.seconds * 1000:.3f}"
        )
        return response
