"""Classroom tests: the cast is tests/conftest.py's; here only a fresh cache per test."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The join page counts wrong codes in the cache: each test starts from zero."""
    cache.clear()
    yield
    cache.clear()
