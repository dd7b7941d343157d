"""``manage.py playout``: the contract's command, its JSON and its errors."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def test_playout_prints_the_contract_json():
    out = StringIO()
    call_command(
        "playout", "kazoku-families", "--players", "3", "--games", "2", "--seed", "4",
        "--option", "variant=gojuon", "--option", "end=pile_empty", "--bots", "easy,hard",
        "--json", stdout=out,
    )  # fmt: skip
    summary = json.loads(out.getvalue())
    for key in ("games", "actions", "seconds", "games_per_s", "invariant_errors"):
        assert key in summary
    assert summary["games"] == 2 and summary["actions"] > 0
    assert summary["invariant_errors"] == 0
    assert len(summary["wins_by_seat"]) == 3 and sum(summary["wins_by_seat"]) >= 2
    assert summary["bots"] == ["easy", "hard", "easy"]
    assert summary["options"] == {"variant": "gojuon", "end": "pile_empty"}


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["no-such-game"], "unknown engine"),
        (["kazoku-families", "--option", "variant=animals"], "variant"),
        (["kazoku-families", "--option", "hand_size=many"], "integer"),
        (["kazoku-families", "--option", "variant"], "KEY=VALUE"),
        (["kazoku-families", "--bots", "easy,genius"], "bot level"),
        (["kazoku-families", "--players", "9"], "2 to 6 players"),
    ],
)
def test_playout_reports_bad_arguments(args, match):
    with pytest.raises(CommandError, match=match):
        call_command("playout", *args, "--games", "1", stdout=StringIO())


def test_playout_counts_a_cooperative_team_win_for_every_seat_and_a_loss_for_none():
    out = StringIO()
    call_command(
        "playout", "yokai", "--players", "3", "--games", "4", "--seed", "1",
        "--option", "level=2", "--bots", "hard", "--json", stdout=out,
    )  # fmt: skip
    summary = json.loads(out.getvalue())
    assert summary["invariant_errors"] == 0 and summary["games"] == 4
    wins = summary["wins_by_seat"]
    assert len(set(wins)) == 1 and 0 <= wins[0] <= 4
    out = StringIO()
    call_command("playout", "yokai", "--players", "2", "--games", "3", "--bots", "random",
                 "--no-check", "--json", stdout=out)  # fmt: skip
    assert json.loads(out.getvalue())["wins_by_seat"] == [0, 0]  # a random team never wins here
