"""The shared engine framework: registry, options, stacked setups, keys, event filtering."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import ENGINES, IllegalAction, action_key, get_engine
from games.engines.base import (
    Option,
    coerce_options,
    competition_ranks,
    latest_events,
    validate_options,
    validate_setup,
    visible_events,
)

SPECS = (
    Option("variant", "choice", "kana", "Families", choices=("themed", "kana")),
    Option("hand_size", "int", 5, "Cards", min=1, max=9),
    Option("jokers", "bool", False, "Jokers"),
)


def test_get_engine_returns_the_registered_engines():
    for name in ENGINES:
        assert get_engine(name).name == name


def test_get_engine_names_the_known_engines_on_a_typo():
    with pytest.raises(KeyError, match="kazoku-families"):
        get_engine("kazoku")


def test_illegal_action_carries_its_message():
    assert IllegalAction("Not your turn.").message == "Not your turn."


def test_action_key_is_canonical():
    assert action_key({"type": "ask", "card": "ki", "target": 1}) == action_key(
        {"target": 1, "type": "ask", "card": "ki"}
    )
    assert action_key({"type": "ask", "card": "ki", "target": 1}) == (
        '{"card":"ki","target":1,"type":"ask"}'
    )


def test_options_get_defaults_and_are_checked():
    assert validate_options(SPECS, None) == {"variant": "kana", "hand_size": 5, "jokers": False}
    assert validate_options(SPECS, {"hand_size": 9, "setup": {"x": 1}})["setup"] == {"x": 1}
    for bad, match in [
        ({"colour": 1}, "unknown option"),
        ({"variant": "x"}, "one of themed, kana"),
        ({"hand_size": 10}, "between 1 and 9"),
        ({"hand_size": True}, "integer"),
        ({"jokers": "yes"}, "true or false"),
    ]:
        with pytest.raises(ValueError, match=match):
            validate_options(SPECS, bad)


def test_string_options_are_coerced_for_forms_and_the_command_line():
    raw = {"variant": "themed", "hand_size": "7", "jokers": "on"}
    assert coerce_options(SPECS, raw) == {"variant": "themed", "hand_size": 7, "jokers": True}
    with pytest.raises(ValueError, match="integer"):
        coerce_options(SPECS, {"hand_size": "seven"})


def test_option_specs_describe_a_form():
    spec = SPECS[0].to_dict()
    assert spec["choices"] == [["themed", "themed"], ["kana", "kana"]]
    assert SPECS[1].to_dict()["min"] == 1
    kazoku = {o["name"] for o in get_engine("kazoku-families").option_specs()}
    assert {"variant", "script", "hand_size", "start", "first", "end", "lay"} == kazoku


def test_setup_must_be_exactly_the_deck():
    deck = ["a", "b", "c", "c"]
    setup = validate_setup(
        {"hands": [["a"], ["c"]], "pile": ["b", "c"], "first": 1}, deck=deck, players=2
    )
    assert setup.hands == (("a",), ("c",)) and setup.pile == ("b", "c") and setup.first == 1
    for bad, match in [
        ({"hands": [["a"], ["c"]], "pile": ["b"]}, "missing \\['c'\\]"),
        ({"hands": [["a", "a"], ["c"]], "pile": ["b", "c"]}, "duplicated \\['a'\\]"),
        ({"hands": [["a"]], "pile": ["b", "c", "c"]}, "2 lists"),
        ({"hands": [["a"], ["c"]], "pile": ["b", "c"], "first": 2}, "first"),
        ({"hands": [["a"], ["c"]], "pile": ["b", "c"], "extra": 1}, "unknown setup"),
        ({"hands": [["a"], "c"], "pile": ["b", "c"]}, "list of card ids"),
    ]:
        with pytest.raises(ValueError, match=match):
            validate_setup(bad, deck=deck, players=2)


def test_visible_events_filter_private_and_public_counterparts():
    log = [
        {"type": "draw", "seat": 1, "card": "mu", "private_to": 1},
        {"type": "draw", "seat": 1, "except": 1},
        {"type": "ask", "seat": 0},
    ]
    assert visible_events(log, 1) == [log[0], log[2]]
    assert visible_events(log, 0) == [log[1], log[2]]
    assert visible_events(log, None) == [log[1], log[2]]


EVENTS = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw", "ask"])},
    optional={"private_to": st.integers(0, 2), "except": st.integers(0, 2)},
)


@settings(max_examples=150, deadline=None)
@given(
    log=st.lists(st.lists(EVENTS, max_size=4), max_size=12),
    seat=st.one_of(st.none(), st.integers(0, 2)),
    limit=st.integers(1, 10),
)
def test_latest_events_is_the_window_of_the_visible_events(log, seat, limit):
    """The one log window every engine's view uses: the last ``limit`` visible events, oldest
    first, copies that share nothing with the log."""
    flat = [event for group in log for event in group]
    window = latest_events(reversed(log), seat, limit)
    assert window == visible_events(flat, seat)[-limit:]
    for event in window:
        event["type"] = "changed"
    assert all(event["type"] != "changed" for event in flat)


def test_competition_ranks_share_ties():
    assert competition_ranks([3, 5, 3, 1]) == [2, 1, 2, 4]
