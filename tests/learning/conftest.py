"""Learning tests: the cast is tests/conftest.py's. Here: deterministic FSRS and a fixed time."""

from datetime import UTC, datetime

import pytest


@pytest.fixture(autouse=True)
def _no_fuzz(settings):
    """Deterministic FSRS intervals in tests."""
    settings.LEARNING_FSRS_FUZZING = False


@pytest.fixture
def t0():
    return datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
