import uuid

import pytest
from celery.result import EagerResult
from django.conf import settings

from kanagame.celery import ping


@pytest.mark.redis
def test_a_task_goes_through_redis_to_the_worker_and_comes_back():
    assert settings.REDIS_URL, "this test only runs with REDIS_URL set"
    token = uuid.uuid4().hex
    result = ping.delay(token)
    # Not eager: the task is queued in Redis, a separate worker process runs it.
    assert not isinstance(result, EagerResult)
    assert result.get(timeout=30) == token
    assert result.successful()


def test_tasks_run_inline_on_the_embedded_default(settings):
    result = ping.delay("inline")
    assert result.get(timeout=1) == "inline"


@pytest.mark.redis
def test_a_task_that_acts_on_the_database_leaves_no_result_in_redis():
    """Nobody reads a CPU burst's return value: it is not stored (CELERY_TASK_IGNORE_RESULT),
    where ``ping``'s, which its caller waits for, is."""
    import time

    from games.tasks import bots_play

    queued = bots_play.delay(0, 0)  # no such table: the worker runs it and does nothing
    assert not isinstance(queued, EagerResult)
    token = uuid.uuid4().hex
    pinged = ping.delay(token)
    assert pinged.get(timeout=30) == token  # the worker took the burst before the ping
    backend = ping.backend
    time.sleep(0.5)  # the burst of an unknown table returns at once
    assert backend.client.exists(backend.get_key_for_task(pinged.id))  # where results go
    assert not backend.client.exists(backend.get_key_for_task(queued.id))
