"""Kazoku CPU players: legal, stateless, reading only the public log, and ranked by strength."""

import json
import random

import pytest
from kazoku_setup import ENG, stacked

from games.engines.conformance import playout
from games.engines.kazoku.bots_families import HardBot, read_log
from games.engines.kazoku.families import rules_for


def ask(target, card):
    return {"type": "ask", "target": target, "card": card}


def after_seat_1_took_ki():
    """Seat 1 is given KI by seat 2, then misses; seat 2 (empty hand) draws and misses."""
    state = stacked(
        [["ko", "sa"], ["ka", "ta"], ["ki"]], ["mu", "me", "mo"], variant="kana", first=1
    )
    state, _ = ENG.apply(state, 1, ask(2, "ki"))
    state, _ = ENG.apply(state, 1, ask(0, "chi"))  # go fish: draws mu; seat 2 draws me
    state, _ = ENG.apply(state, 2, ask(0, "ma"))  # go fish: draws mo
    assert ENG.to_act(state) == [0]
    return state


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_bots_ask_where_the_log_shows_the_card_is(level):
    state = after_seat_1_took_ki()
    view = json.loads(json.dumps(ENG.view(state, 0)))  # bots only ever get the view
    legal = ENG.legal_actions(state, 0)
    for seed in range(10):
        assert ENG.bot(level).choose(view, legal, random.Random(seed)) == ask(1, "ki")


def test_easy_asks_at_random():
    state = after_seat_1_took_ki()
    view, legal = ENG.view(state, 0), ENG.legal_actions(state, 0)
    picks = {json.dumps(ENG.bot("easy").choose(view, legal, random.Random(s))) for s in range(30)}
    assert len(picks) > 3


def test_hard_reads_refusals_and_revealed_families_into_chances():
    # seat 0 asks seat 1 for KI and misses; everyone misses once and draws once
    state = stacked([["ka", "ku", "ke", "ko"], ["ta"], ["na"]], ["mu", "me", "u"], variant="kana")
    state, _ = ENG.apply(state, 0, ask(1, "ki"))  # seat 1 has no KI
    state, _ = ENG.apply(state, 1, ask(2, "chi"))  # seat 1 reveals the TA family; seat 2 no CHI
    state, _ = ENG.apply(state, 2, ask(0, "ni"))
    view = ENG.view(state, 0)
    rules = rules_for("kana")
    memory = read_log(view)
    chances = HardBot._chances(view, rules, memory, set(view["hand"]), {"ki", "te"})
    assert chances["ki"][2] > 3 * chances["ki"][1]  # seat 1 refused KI (one draw since)
    assert chances["te"][1] > chances["te"][2]  # seat 1 asked for the TA family
    assert sum(chances["ki"].values()) == pytest.approx(1.0)
    choices = [
        ENG.bot("hard").choose(view, ENG.legal_actions(state, 0), random.Random(s))
        for s in range(10)
    ]
    assert ask(1, "ki") not in choices


def test_bots_are_stateless_and_do_not_touch_the_view():
    state = after_seat_1_took_ki()
    view, legal = ENG.view(state, 0), ENG.legal_actions(state, 0)
    snapshot = json.dumps(view)
    for level in ("easy", "normal", "hard"):
        bot = ENG.bot(level)
        first = bot.choose(view, legal, random.Random(5))
        assert bot.choose(view, legal, random.Random(5)) == first
        assert ENG.bot(level).choose(view, legal, random.Random(5)) == first
    assert json.dumps(view) == snapshot


def test_bots_lay_when_it_is_their_only_action():
    state = stacked([["ka", "ki", "ku", "ke"], ["ko"]], variant="kana")
    state, _ = ENG.apply(state, 0, ask(1, "ko"))
    for level in ("easy", "normal", "hard"):
        view = ENG.view(state, 0)
        assert ENG.bot(level).choose(view, ENG.legal_actions(state, 0), random.Random(0)) == {
            "type": "lay"
        }


def test_unknown_bot_level_is_refused():
    with pytest.raises(ValueError, match="easy, normal, hard"):
        ENG.bot("genius")


@pytest.mark.parametrize(("strong", "weak"), [("hard", "easy"), ("normal", "easy")])
def test_stronger_bots_win_more_over_seeded_games(strong, weak):
    # seat rotation cancels the first-player advantage; the full measure is in docs/bench.md
    wins = {strong: 0, weak: 0}
    for rotation in range(3):
        bots = [strong, weak, weak][rotation:] + [strong, weak, weak][:rotation]
        summary = playout(ENG, players=3, games=12, seed=100 * rotation, bots=bots, check=False)
        for seat, count in enumerate(summary["wins_by_seat"]):
            wins[bots[seat]] += count
    assert wins[strong] > wins[weak] / 2 * 1.3  # one strong seat vs two weak seats
