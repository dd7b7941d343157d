"""Issue 12, part 8: the CSV formula guard knows every formula starter; table codes are not
guessed faster than join codes."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import game

from games.views.board import TABLE_CODE_FAILURES_LIMIT
from learning.classroom.views.teach.exports import csv_safe

FORMULAS = [
    "=HYPERLINK(1)", "+1+1", "-1+1", "@SUM(A1)", "|calc", "\t=1", "\r=1", "\n=1",
    "＝HYPERLINK(1)", "＋1", "－1", "＠SUM(A1)", "﹦1", "﹢1", "﹣1", "﹫A1", "\u22121",
    " =1", "\u3000＝1", "｜calc",
]  # fmt: skip


@pytest.mark.parametrize("value", FORMULAS)
def test_every_formula_starter_is_defused(value):
    assert csv_safe(value) == "'" + value


@pytest.mark.parametrize("value", ["Hana", "はな", "A-1", "3", "", "Ｈａｎａ", "'=1"])
def test_ordinary_names_are_left_alone(value):
    assert csv_safe(value) == value


def test_the_export_defuses_a_full_width_formula(as_alice, alice_class, bob):
    bob.profile.display_name = '＝HYPERLINK("http://evil")'
    bob.profile.save()
    response = as_alice.get(reverse("teach_export_progress", args=[alice_class.pk]))
    text = b"".join(response.streaming_content).decode()
    assert "'＝HYPERLINK" in text


def _guess(client, code, address="198.51.100.30"):
    return client.get(reverse("games:table", args=[code]), REMOTE_ADDR=address)


def test_table_code_guessing_is_slowed_down_like_join_codes(as_bob, bob):
    table = game([bob], started=timezone.now(), finished=False)
    for n in range(TABLE_CODE_FAILURES_LIMIT):
        assert _guess(as_bob, f"ZZZZ{n:02d}").status_code == 404
    # Over the limit every table URL answers 429, the right code too: a hit looks like a miss.
    locked = _guess(as_bob, table.code)
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert "Too many unknown table codes" in locked.content.decode()
    poll = as_bob.get(reverse("games:poll", args=[table.code]), REMOTE_ADDR="198.51.100.30")
    assert poll.status_code == 429
    joined = as_bob.post(
        reverse("games:join_code"), {"code": "ZZZZZZ"}, REMOTE_ADDR="198.51.100.30"
    )
    assert joined.status_code == 429
    # Another address (another pupil behind no proxy) is not concerned.
    assert _guess(as_bob, table.code, address="198.51.100.31").status_code == 200


def test_known_codes_do_not_count(as_bob, bob):
    table = game([bob], started=timezone.now(), finished=False)
    for _ in range(TABLE_CODE_FAILURES_LIMIT + 5):
        assert _guess(as_bob, table.code).status_code == 200
    assert _guess(Client(), table.code).status_code == 302  # anonymous: the login page
