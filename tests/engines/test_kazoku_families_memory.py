"""The public memory a Kazoku families state carries from move to move (``PublicMemory``)
gives the views a state read afresh from its JSON gives, at every step of whole games."""

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kazoku_setup import ENG

from games.engines.base import visible_events
from games.engines.kazoku.deck import SCRIPT_OF_LETTER, load_deck
from games.engines.kazoku.families import (
    LOG_WINDOW,
    _memory_of_log,
    kana_of_cards,
    public_knowledge,
    recent_events,
)
from games.engines.kazoku.index import rules_for

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "variant": st.sampled_from(["themed", "kana", "gojuon"]),
                "end": st.sampled_from(["all_families", "pile_empty"]),
                "lay": st.sampled_from(["choice", "immediate"]),
                "script": st.sampled_from(["hiragana", "katakana", "mixed"]),
                "start": st.sampled_from(["youngest", "random"]),
            }
        ),
    }
)


def fresh(state):
    """The same position without any memory carried over (as a request reads it)."""
    return ENG.from_json(ENG.to_json(state))


def knowledge_from_scratch(log, players, seat):
    """The summary as the engine computed it before the memory was carried (one pass)."""
    holders, refused, draws = {}, [{} for _ in range(players)], [0] * players
    asked, shown = [{} for _ in range(players)], set()
    for group in log:
        for event in group:
            kind = event["type"]
            if kind == "draw":
                if "except" in event:
                    draws[event["seat"]] += 1
                elif event["private_to"] == seat:
                    shown.add(event["card"])
            elif kind == "ask":
                refused[event["seat"]][event["card"]] = draws[event["seat"]]
                asked[event["seat"]][event["family"]] = None
                shown.add(event["card"])
            elif kind == "given":
                holders[event["card"]] = event["to"]
                refused[event["seat"]][event["card"]] = draws[event["seat"]]
                refused[event["to"]].pop(event["card"], None)
                shown.add(event["card"])
            elif kind == "go_fish":
                refused[event["seat"]][event["card"]] = draws[event["seat"]]
                shown.add(event["card"])
            elif kind == "good_pick":
                holders[event["card"]] = event["seat"]
                refused[event["seat"]].pop(event["card"], None)
                shown.add(event["card"])
            elif kind == "family_laid":
                for card in event["cards"]:
                    holders.pop(card, None)
                asked[event["seat"]].pop(event["family"], None)
    known = {"holders": holders, "refused": refused, "draws": draws,
             "asked_families": [list(a) for a in asked]}  # fmt: skip
    return known, shown


@pytest.mark.slow  # make test leaves it out; make test-slow and CI run it
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, walk_seed=st.integers(0, 10_000), view_every=st.integers(1, 4))
def test_views_of_carried_and_fresh_states_are_equal_through_whole_games(
    game, walk_seed, view_every
):
    import random

    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    seats = [*range(game["players"]), None]
    step = 0
    while True:
        if step % view_every == 0:  # a view starts the carried memory (or reads it)
            for seat in rng.sample(seats, 1):  # one viewer a step (the run stays short)
                view = ENG.view(state, seat)
                again = fresh(state)
                assert "_memory" not in again.__dict__
                assert view == ENG.view(again, seat)
                known, shown = knowledge_from_scratch(state.log, state.players, seat)
                assert view["known"] == known
                assert public_knowledge(state.log, state.players, seat) == (known, shown)
            assert "_memory" in state.__dict__
        if ENG.is_over(state):
            break
        seat = ENG.to_act(state)[0]
        state, _ = ENG.apply(state, seat, rng.choice(ENG.legal_actions(state, seat)))
        step += 1
        assert step < 5000
    # the memory is a cache: not compared, not saved, not copied by _replace
    assert fresh(state) == state and ENG.to_json(fresh(state)) == ENG.to_json(state)
    assert "_memory" not in state._replace(turn=state.turn).__dict__
    assert pickle.loads(pickle.dumps(state)) == state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, walk_seed=st.integers(0, 10_000))
def test_a_carried_memory_is_never_changed_by_later_moves(game, walk_seed):
    import random

    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    ENG.view(state, None)
    history = []
    while not ENG.is_over(state):
        history.append((state, ENG.view(state, 0)))
        seat = ENG.to_act(state)[0]
        state, _ = ENG.apply(state, seat, rng.choice(ENG.legal_actions(state, seat)))
    for old, view in history:
        assert ENG.view(old, 0) == view
        memory = old.__dict__["_memory"]
        scratch = _memory_of_log(old.log, old.players)
        assert memory.knowledge(0) == scratch.knowledge(0)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, walk_seed=st.integers(0, 10_000))
def test_kana_and_log_window_as_before(game, walk_seed):
    """``view["kana"]`` lists each card shown in deck order with its glyph in the game's
    script; ``view["log"]`` is the seat's last ``LOG_WINDOW`` visible events."""
    import random

    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    rules = rules_for(state.variant)
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        state, _ = ENG.apply(state, seat, rng.choice(ENG.legal_actions(state, seat)))
    for seat in [*range(state.players), None]:
        view = ENG.view(state, seat)
        expected = {}
        for card in sorted(view["kana"], key=rules.order.get):
            script = SCRIPT_OF_LETTER[state.scripts[rules.order[card]]]
            expected[card] = {"glyph": load_deck().cards[card].glyph(script), "script": script}
        assert list(view["kana"].items()) == list(expected.items())
        full = [event for group in state.log for event in group]
        assert recent_events(state.log, seat) == visible_events(full, seat)[-LOG_WINDOW:]
    assert len(kana_of_cards(state.scripts)) == len(load_deck().ids)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games, walk_seed=st.integers(0, 10_000))
def test_every_bot_chooses_alike_on_the_view_and_the_bot_view(game, walk_seed):
    """``bot_view`` is the view without the entries no bot reads: same choices, every level,
    at every turn of whole games played by the bots themselves."""
    import random

    rng = random.Random(walk_seed)
    state = ENG.new_game(game["players"], game["seed"], game["options"])
    bots = {level: ENG.bot(level) for level in ("easy", "normal", "hard")}
    turns = 0
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        view, bot_view = ENG.view(state, seat), ENG.bot_view(state, seat)
        assert bot_view == {k: v for k, v in view.items() if k not in ("kana", "log")}
        for bot in bots.values():
            seed = rng.randrange(2**32)
            chosen = bot.choose(view, legal, random.Random(seed))
            assert bot.choose(bot_view, legal, random.Random(seed)) == chosen
        level = ("easy", "normal", "hard")[turns % 3]
        state, _ = ENG.apply(state, seat, bots[level].choose(bot_view, legal, rng))
        turns += 1
        assert turns < 5000
