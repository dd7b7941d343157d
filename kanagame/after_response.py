"""Work the answer does not show, run once the answer has been sent (eager mode's worker).

Without Redis (the embedded default) Celery runs every task inline, inside the request that
queued it. For most tasks that is what the page needs (the CPU players' replies are on the
board the move returns). One is not: the dashboards' summary rows refreshed when a game
ends (`learning.classroom.tasks.refresh_summaries_after_game`), a few grouped queries over the
players' whole event log, which made the last move of a game cost three times a move
(docs/bench.md, "Session 26"). ``delay_on_commit_after_response`` queues such a task: to the
workers as ``delay_on_commit`` does, or in eager mode to run after the commit **and** after
the response has been sent.

How: ``request_started`` opens a list for the request; ``run_after_response`` appends to it;
``request_finished`` (sent when the server closes the response, after its last byte was
written: gunicorn, runserver and Django's test client all close it) runs the list in order.
Outside a request (a Celery worker, a management command, a test calling a service) the
work runs at once. The list lives in a ``ContextVar``: one per thread, so one per request
in a sync or threaded WSGI server; nothing is shared between requests or processes.

Every item runs even when one fails; the first error is then raised again, so that the
server logs it and a test sees it (the client already has its answer). The work's CPU is
spent by the same worker process before its next request: the load benchmark's per-request
``Server-Timing`` does not include it, the servers' total CPU does.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.signals import request_finished, request_started
from django.db import transaction

_PENDING: ContextVar[list[Callable[[], Any]] | None] = ContextVar(
    "kanagame_after_response", default=None
)


def run_after_response(work: Callable[[], Any]) -> None:
    """Run ``work`` once this request's response has been sent; at once outside a request."""
    pending = _PENDING.get()
    if pending is None:
        work()
    else:
        pending.append(work)


def delay_on_commit_after_response(task, *args: Any) -> None:
    """``task.delay_on_commit(*args)``; in eager mode (no broker) the task runs after the
    commit and after the response, instead of inside the commit."""
    if task.app.conf.task_always_eager:
        transaction.on_commit(lambda: run_after_response(lambda: task.delay(*args)))
    else:
        task.delay_on_commit(*args)


def _run(works: list[Callable[[], Any]]) -> None:
    first_error: Exception | None = None
    for work in works:
        try:
            work()
        except Exception as exc:  # the others still run; the first is raised below
            first_error = first_error or exc
    if first_error is not None:
        raise first_error


def _request_started(**kwargs: Any) -> None:
    leftover = _PENDING.get()
    _PENDING.set([])
    if leftover:  # a response that was never closed: its work is not lost
        _run(leftover)


def _request_finished(**kwargs: Any) -> None:
    pending = _PENDING.get()
    _PENDING.set(None)  # what this work queues runs at once
    if pending:
        _run(pending)


request_started.connect(_request_started, dispatch_uid="kanagame.after_response.started")
request_finished.connect(_request_finished, dispatch_uid="kanagame.after_response.finished")
