"""Koi-Koi CPU players: legal, decided from their own view only, and ordered in strength."""

import random

import pytest
from koikoi_setup import ENG, KO_HAND, OYA_HAND, PILE_TOP, TABLE, stacked

from games.engines import action_key


def test_every_level_chooses_a_legal_action_through_whole_games():
    for level in ("easy", "normal", "hard"):
        bot, rng = ENG.bot(level), random.Random(3)
        state = ENG.new_game(2, 3, {"rounds": "3", "draw_capture": "optional"})
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, seat)
            action = bot.choose(ENG.view(state, seat), legal, rng)
            assert action_key(action) in {action_key(a) for a in legal}
            state, _ = ENG.apply(state, seat, action)


def test_hard_decides_koikoi_from_its_own_view_only():
    """Its decision must not change when only cards it cannot see are moved."""
    state = stacked([OYA_HAND, KO_HAND], TABLE, PILE_TOP, first=0)
    state, _ = ENG.apply(state, 0, {"type": "play", "card": "kiku-sakazuki"})
    assert state.phase == "decide"
    bot, legal = ENG.bot("hard"), ENG.legal_actions(state, 0)
    for seed in range(5):
        hidden = ENG.shuffle_hidden(state, 0, random.Random(seed))
        assert hidden != state
        choices = [bot.choose(ENG.view(s, 0), legal, random.Random(42)) for s in (state, hidden)]
        assert choices[0] == choices[1]


def test_normal_takes_the_richest_capture_and_scores_at_once():
    table = ["sakura-maku", "kiku-chaff-1", *TABLE[2:]]
    hand = ["sakura-chaff-1", "kiku-chaff-2", *OYA_HAND[2:]]
    state = stacked([hand, KO_HAND], table, ["botan-chaff-1"], first=0)
    legal = ENG.legal_actions(state, 0)
    action = ENG.bot("normal").choose(ENG.view(state, 0), legal, random.Random(0))
    assert action == {"type": "play", "card": "sakura-chaff-1"}  # takes the curtain
    decide = {"type": "shobu"}
    assert ENG.bot("normal").choose({}, [{"type": "koikoi"}, decide], random.Random(0)) == decide


def test_hard_scores_when_koikoi_can_only_lose():
    """No hand cards left: koi-koi would end the round with nothing (only shōbu is legal)."""
    view = {"hand": [], "seat": 0}
    assert ENG.bot("hard").choose(view, [{"type": "shobu"}], random.Random(0)) == {"type": "shobu"}


@pytest.mark.parametrize(("strong", "weak"), [("hard", "easy"), ("normal", "easy")])
def test_stronger_levels_score_more_over_seeded_games(strong, weak):
    points = {strong: 0, weak: 0}
    for game in range(4):
        order = (strong, weak) if game % 2 == 0 else (weak, strong)
        bots, rng = [ENG.bot(level) for level in order], random.Random(game)
        state = ENG.new_game(2, 100 + game, {"rounds": "6"})
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            legal = ENG.legal_actions(state, seat)
            state, _ = ENG.apply(state, seat, bots[seat].choose(ENG.view(state, seat), legal, rng))
        for seat, level in enumerate(order):
            points[level] += state.scores[seat]
    assert points[strong] > points[weak]


def test_playout_command_plays_koikoi_with_its_two_players_by_default():
    import json
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "playout", "koikoi", "--games", "2", "--seed", "3", "--bots", "hard,normal",
        "--option", "rounds=3", "--option", "stacking=older", "--json", stdout=out,
    )  # fmt: skip
    summary = json.loads(out.getvalue())
    assert summary["players"] == 2 and summary["invariant_errors"] == 0
    assert summary["options"] == {"rounds": "3", "stacking": "older"}
    assert sum(summary["wins_by_seat"]) >= 2
