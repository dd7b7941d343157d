"""CPU players of the Kazoku word game: legal, stateless, and playing to the rules' strengths."""

import random
from collections import Counter
from dataclasses import replace

import pytest
from test_kazoku_words_rules import deal, with_scored

from games.engines import action_key, get_engine

ENG = get_engine("kazoku-words")
LEVELS = ("easy", "normal", "hard")


def choose(level, state, seat=0, seed=0):
    return ENG.bot(level).choose(
        ENG.view(state, seat), ENG.legal_actions(state, seat), random.Random(seed)
    )


@pytest.mark.parametrize("options", [{}, {"table_cards": 5}, {"end": "pile_empty", "decks": 2}])
def test_every_bot_always_chooses_a_legal_action(options):
    for game in range(6):
        bots = [ENG.bot(LEVELS[(game + s) % 3]) for s in range(4)]
        rng = random.Random(game)
        state = ENG.new_game(players=4, seed=game, options=options)
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, seat)
            action = bots[seat].choose(ENG.view(state, seat), legal, rng)
            assert action_key(action) in {action_key(a) for a in legal}
            state, _ = ENG.apply(state, seat, action)


def test_bots_are_stateless_the_same_view_gives_the_same_choice():
    state = ENG.new_game(players=3, seed=4, options={"table_cards": 3})
    for level in LEVELS:
        bot = ENG.bot(level)
        view, legal = ENG.view(state, 0), ENG.legal_actions(state, 0)
        first = bot.choose(view, legal, random.Random(1))
        ENG.bot(level).choose(ENG.view(state, 0), legal, random.Random(9))
        assert bot.choose(view, legal, random.Random(1)) == first


def test_normal_forms_the_word_worth_most():
    state = deal([["ne", "ko", "ki", "tsu"], ["ke"]])  # ねこ 1 point, きつね 2 points
    assert choose("normal", state)["word"] == "ki"


def test_hard_asks_before_forming_then_forms_the_best_word():
    state = deal([["ne", "ko", "ki", "tsu"], ["ke"]], pile_top=["so"])
    assert choose("hard", state)["type"] == "ask"  # forming stays possible after the ask
    state, _ = ENG.apply(state, 0, choose("hard", state))
    assert state.phase == "after_ask"
    assert choose("hard", state)["word"] == "ki"


def test_hard_prefers_stealing_to_spending_its_own_card():
    state = with_scored(deal([["ki", "tsu", "ne"], ["ke"]], decks=2), {1: ["ne.2"]})
    state = replace(state, phase="after_ask")
    action = choose("hard", state)
    assert action["word"] == "ki" and action["steal"] == [[1, "ne.2"]]


def test_hard_asks_for_the_kana_completing_the_most_valuable_word():
    state = deal([["ki", "tsu", "i"], ["ke"]])  # きつね (2) misses ね; いぬ (1) misses ぬ
    assert choose("hard", state) == {"type": "ask", "kana": "ne"}


def test_hard_remembers_who_publicly_holds_a_kana():
    state = deal([["i", "a"], ["ta", "ke"], ["so"]])
    assert choose("hard", state)["kana"] != "ta"
    known = replace(state, known=((), ("ta",), ()))  # seat 1 was seen receiving た
    assert choose("hard", known) == {"type": "ask", "kana": "ta"}


def test_hard_never_asks_for_a_kana_whose_every_copy_is_in_sight():
    state = with_scored(deal([["i", "a"], ["ke"]]), {1: ["nu"]})  # ぬ scored: not stealable
    for seed in range(5):
        assert choose("hard", state, seed=seed)["kana"] in {"ta", "ma"}


def test_hard_beats_normal_beats_easy_over_seeded_games():
    wins = Counter()
    seats = ("hard", "normal", "easy")
    for game in range(60):
        order = seats[game % 3 :] + seats[: game % 3]
        bots = [ENG.bot(level) for level in order]
        rng = random.Random(game)
        state = ENG.new_game(players=3, seed=game, options={})
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, seat)
            state, _ = ENG.apply(state, seat, bots[seat].choose(ENG.view(state, seat), legal, rng))
        for seat, rank in enumerate(ENG.outcome(state)["ranks"]):
            wins[order[seat]] += rank == 1
    assert wins["hard"] > wins["normal"] > wins["easy"]
