"""kanagame.warmup: a web process builds its lazy objects before the GC freeze, and collects
between requests (docs/bench.md, "Cheaper requests, the GC tail and the session engine")."""

import gc
import logging
import weakref

import pytest

from kanagame import warmup


def test_every_warm_up_step_runs_without_a_failure(caplog):
    with caplog.at_level(logging.WARNING, logger="kanagame.warmup"):
        took = warmup.warm_up()
    assert set(took) == {step.__name__ for step in warmup.STEPS}
    assert not [r for r in caplog.records if r.name == "kanagame.warmup"]


def test_a_failing_step_is_logged_and_the_others_still_run(monkeypatch, caplog):
    ran = []

    def broken():
        raise RuntimeError("no")

    monkeypatch.setattr(warmup, "STEPS", [broken, lambda: ran.append("next")])
    with caplog.at_level(logging.WARNING, logger="kanagame.warmup"):
        warmup.warm_up()
    assert ran == ["next"]
    assert "warm-up step broken failed" in caplog.text


class _Cycle:
    """A response body in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self
        self.closed = False

    def __iter__(self):
        return iter([b"hello ", b"world"])

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def gc_quiet():
    """No automatic collection during the test: only the wrapper's runs."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_the_response_is_sent_whole_then_closed_then_collected(gc_quiet):
    made = []

    def app(environ, start_response):
        start_response("200 OK", [("Content-Length", "11")])
        body = _Cycle()
        made.append(weakref.ref(body))
        return body

    wrapped = warmup.CollectBetweenRequests(app)
    body = wrapped({}, lambda status, headers: None)
    assert b"".join(body) == b"hello world"
    target = made[0]()
    assert target is not None and not target.closed
    del target
    body.close()
    assert made[0]() is None  # closed, dropped and collected before the next request


def test_files_streamed_by_the_server_pass_through_unwrapped():
    class FileWrapper:
        def __init__(self, handle) -> None:
            self.handle = handle

    streamed = FileWrapper(object())
    wrapped = warmup.CollectBetweenRequests(lambda environ, start_response: streamed)
    assert wrapped({"wsgi.file_wrapper": FileWrapper}, lambda *a: None) is streamed


def test_the_collected_generation_follows_the_collectors_own_counts(monkeypatch):
    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation))
    monkeypatch.setattr(gc, "get_threshold", lambda: (20_000, 20, 20))
    for counts, expected in [((5, 0, 0), 0), ((5, 20, 3), 1), ((5, 20, 20), 2), ((0, 3, 25), 2)]:
        monkeypatch.setattr(gc, "get_count", lambda counts=counts: counts)
        warmup.collect_between_requests()
        assert collected[-1] == expected
