"""kanagame/after_response.py: work queued in a request runs once its response is closed."""

import pytest
from django.core.signals import request_finished, request_started

from kanagame.after_response import run_after_response

pytestmark = pytest.mark.django_db  # the request signals reach Django's close_old_connections


def test_outside_a_request_the_work_runs_at_once():
    done = []
    run_after_response(lambda: done.append(1))
    assert done == [1]


def test_in_a_request_the_work_waits_for_the_response_to_be_closed():
    done = []
    request_started.send(sender=None)
    try:
        run_after_response(lambda: done.append("a"))
        run_after_response(lambda: done.append("b"))
        assert done == []
    finally:
        request_finished.send(sender=None)
    assert done == ["a", "b"]
    run_after_response(lambda: done.append("c"))  # after the request: at once
    assert done == ["a", "b", "c"]


def test_a_failing_item_does_not_stop_the_others_and_is_raised_after_them():
    done = []

    def fails():
        raise ValueError("boom")

    request_started.send(sender=None)
    run_after_response(fails)
    run_after_response(lambda: done.append("after"))
    with pytest.raises(ValueError, match="boom"):
        request_finished.send(sender=None)
    assert done == ["after"]


def test_work_of_a_response_never_closed_runs_when_the_next_request_starts():
    done = []
    request_started.send(sender=None)
    run_after_response(lambda: done.append("left"))
    request_started.send(sender=None)  # no request_finished in between
    assert done == ["left"]
    request_finished.send(sender=None)
    assert done == ["left"]


def test_work_queued_by_deferred_work_runs_at_once():
    done = []
    request_started.send(sender=None)
    run_after_response(lambda: run_after_response(lambda: done.append("inner")))
    request_finished.send(sender=None)
    assert done == ["inner"]


@pytest.mark.django_db
def test_a_page_served_by_the_client_runs_its_work_after_the_view(client, monkeypatch):
    """Django's test client, like a WSGI server, closes the response: the work then runs."""
    from django.urls import path

    done = []

    def view(request):
        from django.http import HttpResponse

        run_after_response(lambda: done.append("after"))
        done.append("view")
        return HttpResponse("ok")

    import kanagame.urls

    monkeypatch.setattr(kanagame.urls, "urlpatterns", [path("x/", view)])
    from django.urls import clear_url_caches

    clear_url_caches()
    try:
        assert client.get("/x/").content == b"ok"
    finally:
        clear_url_caches()
    assert done == ["view", "after"]
