"""``Server-Timing`` on every response, for the load benchmark (``bench/load.py``).

Enabled by ``KANAGAME_SERVER_TIMING=1`` (off by default: a production server does not tell
clients what it costs). Each response then carries::

    Server-Timing: cpu;dur=1.234, db;desc="queries";dur=2

``cpu`` is the worker process's CPU time spent on the request in milliseconds
(``time.process_time``, exact for gunicorn's single-threaded sync workers) and ``db`` the
number of SQL queries it ran. The bench reads both per request kind.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse


class _QueryCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        counter = _QueryCounter()
        started = time.process_time()
        with connection.execute_wrapper(counter):
            response = self.get_response(request)
        cpu_ms = (time.process_time() - started) * 1000
        response["Server-Timing"] = f'cpu;dur={cpu_ms:.3f}, db;desc="queries";dur={counter.count}'
        return response
