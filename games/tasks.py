"""Celery tasks of the games app: thin, idempotent, keyed by (table, version).

Each task takes ids, fetches fresh rows and calls a service. A task delivered twice, retried,
or arriving after the table moved on does nothing (the services check the version).
"""

from __future__ import annotations

from celery import current_app, shared_task
from celery.utils.log import get_task_logger

from games.models import Table

# The module, not its names: games.services.play queues these tasks and imports this module,
# so the names are looked up when a task runs, after both modules are loaded.
from games.services import play

logger = get_task_logger(__name__)


def runs_eagerly() -> bool:
    """Whether tasks run inline (embedded default and tests): countdowns are ignored then."""
    return bool(current_app.conf.task_always_eager)


@shared_task(name="games.bots_play")
def bots_play(table_id: int, version: int) -> int:
    """Play the CPU turns due at ``version`` of the table; a no-op if it moved on.

    Logs one line per run with its key and the moves it saved (``played=0``: a duplicate or
    late delivery that did nothing); ``bench/load.py`` counts them against the Move rows."""
    played = play.table_bots_play(table_id=table_id, version=version)
    logger.info("bots_play table=%s version=%s played=%s", table_id, version, played)
    return played


@shared_task(name="games.turn_timeout")
def turn_timeout(table_id: int, version: int) -> int:
    """A turn timer may have run out at ``version``: let a CPU stand-in play if so."""
    table = Table.objects.filter(pk=table_id, version=version).first()
    if table is None:
        return 0
    return play.table_timeouts_run(table=table)


@shared_task(name="games.timeouts_sweep")
def timeouts_sweep() -> int:
    """Beat task: act on every overdue turn (the due times live in the database)."""
    return play.timeouts_sweep()
