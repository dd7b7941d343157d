import uuid

import pytest
from django.conf import settings

from kanagame.celery import ping


@pytest.mark.redis
def test_a_task_goes_through_redis_to_the_worker_and_comes_back():
    assert settings.REDIS_URL, "this test only runs with REDIS_URL set"
    token = uuid.uuid4().hex
    result = ping.delay(token)
    # Not eager: the task is queued in Redis, a separate worker process runs it.
    assert result.get(timeout=30) == token
    assert result.successful()


def test_tasks_run_inline_on_the_embedded_default(settings):
    result = ping.delay("inline")
    assert result.get(timeout=1) == "inline"
