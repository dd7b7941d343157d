"""The load benchmark's server side: seed_load's class of students, the Server-Timing header."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.conf import settings
from django.core.management import call_command

from games.models import Table
from learning.classroom.models import Membership

TIMING = re.compile(r'^cpu;dur=(\d+\.\d{3}), db;desc="queries";dur=(\d+)$')


@pytest.mark.django_db
def test_seed_load_creates_a_class_of_students_each_at_a_dealt_solo_table(client):
    out = io.StringIO()
    call_command("seed_load", "--students", "3", "--password", "pw-load-1", stdout=out)
    seeded = json.loads(out.getvalue())

    assert len(seeded["students"]) == 3
    for student in seeded["students"]:
        table = Table.objects.get(code=student["table"])
        assert table.status == "playing"
        humans = [s for s in table.seats.all() if s.user_id]
        assert [s.user.username for s in humans] == [student["username"]]
        assert Membership.objects.filter(
            student__username=student["username"], classroom__join_code=seeded["join_code"]
        ).exists()
    first = seeded["students"][0]
    assert client.login(username=first["username"], password="pw-load-1")
    assert client.get(f"/play/t/{first['table']}/").status_code == 200


@pytest.mark.django_db
def test_server_timing_reports_cpu_and_queries_when_enabled(client, settings):
    settings.MIDDLEWARE = ["kanagame.server_timing.ServerTimingMiddleware", *settings.MIDDLEWARE]
    response = client.get("/login/")
    match = TIMING.match(response["Server-Timing"])
    assert match, response["Server-Timing"]
    assert float(match.group(1)) > 0

    call_command("seed_load", "--students", "1", stdout=io.StringIO())
    table = Table.objects.latest("id")
    client.force_login(table.seats.get(index=0).user)
    polled = client.get(f"/play/t/{table.code}/poll/?v={table.version}")
    assert polled.status_code == 204
    assert int(TIMING.match(polled["Server-Timing"]).group(2)) >= 1  # it read the table


def test_server_timing_is_off_by_default():
    assert "kanagame.server_timing.ServerTimingMiddleware" not in settings.MIDDLEWARE
