"""Every registered engine passes the generic conformance checks through bot playouts.

Also proves the checks can fail: a leaky view, lost cards and a mutating apply are caught.
"""

import dataclasses
import json
import random

import pytest

from games.engines import ENGINES, get_engine
from games.engines.bozu import Bozu, load_poets
from games.engines.conformance import (
    check_card_questions,
    check_cards_shown,
    check_conservation,
    check_practice,
    check_state,
    check_views,
    playout,
)
from games.engines.kazoku.families import KazokuFamilies


@pytest.mark.parametrize("name", sorted(ENGINES))
@pytest.mark.parametrize("players", [2, 4])
def test_every_engine_plays_bot_games_without_invariant_errors(name, players):
    engine = get_engine(name)
    players = max(engine.MIN_PLAYERS, min(players, engine.MAX_PLAYERS))
    summary = playout(
        engine, players=players, games=2, seed=11, bots=list(engine.BOT_LEVELS), check=True
    )
    assert summary["errors"] == [] and summary["invariant_errors"] == 0
    assert summary["games"] == 2 and summary["actions"] > 0
    if getattr(engine, "cooperative", False):  # one team: every seat wins or loses together
        assert len(set(summary["wins_by_seat"])) == 1
    else:
        assert sum(summary["wins_by_seat"]) >= 2


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_engine_offers_valid_practice_presets_and_a_lobby_title(name):
    engine = get_engine(name)
    assert check_practice(engine) == []
    for preset in engine.practice_presets():
        assert engine.practice(preset), preset


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_engine_shows_cards_that_its_views_hold(name):
    """From the deal on, and after each bot action until some seat sees a card (a game that
    deals every card face down, such as Yokai, shows one after a peek or a reveal)."""
    engine = get_engine(name)
    state = engine.new_game(players=engine.MIN_PLAYERS, seed=3)
    bot, rng = engine.bot("easy"), random.Random(3)
    for _action in range(100):
        seen = {}
        for seat in [*range(engine.MIN_PLAYERS), None]:
            view = engine.view(state, seat)
            assert check_cards_shown(engine, view, json.dumps(view), seat) == []
            seen[seat] = set(engine.cards_shown(view))
        if any(seen[seat] for seat in range(engine.MIN_PLAYERS)) or engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        state, _events = engine.apply(state, seat, action)
    assert any(seen[seat] for seat in range(engine.MIN_PLAYERS)), "no seat sees any card"


class BoastfulFamilies(KazokuFamilies):
    def cards_shown(self, view):
        return {**super().cards_shown(view), "zz-not-a-card": "hiragana"}

    def practice_presets(self):
        return [{"variant": "no-such-variant"}]


def test_the_checks_catch_cards_shown_that_the_view_lacks_and_bad_presets():
    engine = BoastfulFamilies()
    state = engine.new_game(players=3, seed=1)
    view = engine.view(state, 0)
    errors = check_cards_shown(engine, view, json.dumps(view), 0)
    assert errors == ["cards_shown for seat 0 names 'zz-not-a-card', absent from the view"]
    assert any("is not a valid options set" in error for error in check_practice(engine))


class LeakyFamilies(KazokuFamilies):
    def view(self, state, seat):
        view = super().view(state, seat)
        view["hand_sizes"] = [list(hand) for hand in state.hands]  # shows every hand
        return view


class MutatingFamilies(KazokuFamilies):
    def apply(self, state, seat, action):
        new_state, events = super().apply(state, seat, action)
        state.log[-1][-1]["type"] = "tampered"
        return new_state, events


def test_the_checks_catch_a_view_leaking_hands():
    engine = LeakyFamilies()
    state = engine.new_game(players=3, seed=1)
    errors = check_views(engine, state, 3, random.Random(0))
    assert any("changes with information hidden" in error for error in errors)


def test_the_checks_catch_lost_cards():
    engine = get_engine("kazoku-families")
    state = engine.new_game(players=3, seed=1)
    broken = state._replace(pile=state.pile[1:])
    assert check_conservation(engine, broken)[0].startswith("card conservation broken")


def test_the_checks_catch_an_apply_that_mutates_its_input():
    engine = MutatingFamilies()
    state = engine.new_game(players=3, seed=1)
    errors = check_state(engine, state, 3, random.Random(0), sample=1)
    assert "apply mutated the state it was given" in errors


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_engine_asks_valid_card_questions_whose_solutions_no_view_holds(name):
    """``card_question`` (optional): checked on a fresh deal and at the end of a bot game, when
    an engine that shows its cards face up has shown the most of them."""
    engine = get_engine(name)
    players = engine.MIN_PLAYERS
    for preset in [{}, *engine.practice_presets()]:
        state = engine.new_game(players=players, seed=5, options=dict(preset))
        assert check_card_questions(engine, state, players, preset) == []
    summary = playout(engine, players=players, games=1, seed=5, check=True)
    assert summary["errors"] == []


class TellingBozu(Bozu):
    """Prints each revealed card's second half in the view, and asks a broken question."""

    def view(self, state, seat):
        view = super().view(state, seat)
        view["poems"] = {c: load_poets().cards[c].lower_yomi for c in view["kana"]}
        return view

    def card_question(self, card_id, options):
        question = super().card_question(card_id, options)
        if card_id == "p001":
            return dataclasses.replace(question, choices=("a", "i"))  # the answer is not there
        return question


def test_the_checks_catch_a_card_question_without_its_answer_and_a_view_telling_the_poem():
    engine = TellingBozu()
    state = engine.new_game(players=2, seed=1)
    assert check_card_questions(engine, state, 2) == [
        "card_question('p001') offers ('a', 'i') for the answer 'wa'"
    ]
    state, _events = engine.apply(state, engine.to_act(state)[0], {"type": "draw"})
    errors = check_card_questions(engine, state, 2)
    assert any("holds the solution of" in error for error in errors), errors
    assert get_engine("kazoku-families").asks_about_cards is False
    assert get_engine("bozu").asks_about_cards is True
