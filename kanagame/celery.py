"""The Celery app: configured from Django settings (CELERY_ namespace), tasks autodiscovered."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")

app = Celery("kanagame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="kanagame.ping", ignore_result=False)
def ping(value: str = "pong") -> str:
    """Round-trip check used by /healthz-style tests: returns what it was given (its result
    is stored, unlike every other task's: ``CELERY_TASK_IGNORE_RESULT``)."""
    return value
