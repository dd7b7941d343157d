"""Games tests: the cast is tests/conftest.py's. Here: committed transactions for tests that
use the cast (bot turns and follow-ups run on commit) and the test-only "count-test" engine."""

import pytest

from games.engines import ENGINES

CAST = {"alice", "alice_class", "bob", "erin", "charlie", "dave", "dave_class", "dana"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """A games test that meets the cast runs on committed transactions (`on_commit` fires).

    ``tryfirst``: the marker must be on the test before pytest-django sorts the transactional
    tests after the others (tests/conftest.py refuses a run where one is not)."""
    here = config.rootpath / "tests" / "games"
    for item in items:
        if item.path.is_relative_to(here) and CAST & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture
def count_engine(monkeypatch):
    monkeypatch.setitem(ENGINES, "count-test", "games_toy_engine")
    return "count-test"
