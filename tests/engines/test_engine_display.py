"""The Display contract (ARCHITECTURE §2): every engine names itself, its options and their
values in words, says whether it is ranked, and describes a chosen option set without an id.

Engines are pure Python: the words are English marked with ``gettext_noop``; a ``translate``
function passed in by the web layer turns each one into the interface language.
"""

import dataclasses

import pytest

from games.engines import ENGINES, get_engine
from games.engines.base import Option
from games.engines.conformance import check_display
from games.engines.kazoku.families import KazokuFamilies


def _marked(text: str) -> str:
    """A stand-in translation: every translated piece comes back inside angle brackets."""
    return f"<{text}>"


def _untranslated(text: str) -> str:
    """What lies outside every ``<...>`` of ``text``."""
    depth, outside = 0, []
    for char in text:
        depth += char == "<"
        if depth == 0:
            outside.append(char)
        depth -= char == ">"
    return "".join(outside)


def _non_default_values(option: Option) -> list:
    if option.kind == "choice":
        return [value for value in option.choices if value != option.default]
    if option.kind == "bool":
        return [not option.default]
    return [value for value in (option.min, option.max) if value != option.default]


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_engine_passes_the_display_checks(name):
    assert check_display(get_engine(name)) == []


@pytest.mark.parametrize("name", list(ENGINES))
def test_option_labels_name_every_option_and_every_value(name):
    engine = get_engine(name)
    labels = engine.option_labels()
    assert list(labels) == [option.name for option in engine.OPTIONS]
    for option in engine.OPTIONS:
        entry = labels[option.name]
        assert entry["label"] == option.label and entry["label"] != option.name
        if option.kind == "choice":
            assert set(entry["values"]) == set(option.choices)
            assert all(entry["values"][v] != v for v in option.choices if "_" in v)
        elif option.kind == "bool":
            assert entry["values"] == {True: "yes", False: "no"}


@pytest.mark.parametrize("name", list(ENGINES))
def test_describe_says_each_chosen_option_in_words(name):
    engine = get_engine(name)
    labels = engine.option_labels()
    for option in engine.OPTIONS:
        for value in _non_default_values(option):
            text = engine.describe({option.name: value})
            value_label = labels[option.name]["values"].get(value, str(value))
            assert value_label in text, (option.name, value, text)
            assert f"{option.name}:" not in text and f": {value}" not in text.replace(
                f": {value_label}", ""
            )
            assert "True" not in text and "False" not in text


@pytest.mark.parametrize("name", list(ENGINES))
def test_describe_translates_every_piece(name):
    engine = get_engine(name)
    for option in engine.OPTIONS:
        for value in _non_default_values(option):
            text = engine.describe({option.name: value}, translate=_marked)
            # every word went through translate: outside it only separators are left
            assert not any(ch.isalpha() for ch in _untranslated(text)), (option.name, text)
        labels = engine.option_labels(translate=_marked)
        for option in engine.OPTIONS:
            entry = labels[option.name]
            assert entry["label"].startswith("<")
            if option.kind != "int" or option.seat:  # plain numbers are said as numbers
                assert all(label.startswith("<") for label in entry["values"].values())


def test_describe_names_the_variant_even_at_its_default_and_skips_other_defaults():
    engine = get_engine("kazoku-families")
    text = engine.describe({"variant": "kana", "script": "katakana", "hand_size": 5})
    assert text == "Kana rows (9 x 5) · Katakana"
    assert engine.describe({}) == "Themed families (9 x 5) · Hiragana"
    assert engine.describe({"hand_size": 7}).endswith("Cards dealt to each player: 7")


def test_describe_ignores_table_options_and_values_it_does_not_know():
    engine = get_engine("koikoi")
    text = engine.describe({"rounds": "6", "romaji": "never", "bright_points": "no-such"})
    assert text == "6 rounds"


def test_a_seat_option_is_said_from_one_like_the_seats():
    engine = get_engine("yokai")
    assert engine.describe({"first": 2}) == "Level: 1 · Hiragana · " + (
        "Seat of the player most afraid of ghosts (plays first): Seat 3"
    )


def test_only_the_ranked_games_say_so():
    assert {name for name in ENGINES if get_engine(name).ranked} == {"bozu"}


class Unlabelled(KazokuFamilies):
    title = ""
    OPTIONS = (
        *KazokuFamilies.OPTIONS[:-1],
        dataclasses.replace(KazokuFamilies.OPTIONS[-1], label="", choice_labels=()),
    )
    DESCRIBED_OPTIONS = ("variant", "no_such_option")


def test_the_display_checks_catch_missing_names_and_labels():
    errors = check_display(Unlabelled())
    assert "kazoku-families has no title" in errors
    assert "option 'lay' has no label" in errors
    assert "option 'lay' shows its value 'choice' as an id" in errors
    assert "DESCRIBED_OPTIONS names an unknown option 'no_such_option'" in errors
