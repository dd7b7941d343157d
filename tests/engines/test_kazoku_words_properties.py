"""Properties of the Kazoku word game over seeds, player counts and options (Hypothesis), and
thousands of random games that all end."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction, action_key, get_engine
from games.engines.conformance import check_state
from games.engines.kazoku.index import base, deck_ids, is_joker, word_index
from games.engines.kazoku.words import turn_limit

ENG = get_engine("kazoku-words")
GAME_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "table_cards": st.sampled_from([0, 3, 4, 5]),
                "end": st.sampled_from(["target", "pile_empty"]),
                "decks": st.integers(1, 3),
                "script": st.sampled_from(["hiragana", "katakana", "mixed"]),
                "replay_on_give": st.booleans(),
                "max_rounds": st.sampled_from([0, 10, 60]),
            }
        ),
    }
)


def random_play(game, steps, rng):
    """Yield (state, seat, legal) along a game of random legal actions."""
    state = ENG.new_game(players=game["players"], seed=game["seed"], options=game["options"])
    for _ in range(steps):
        if ENG.is_over(state):
            return
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        yield state, seat, legal
        state, _ = ENG.apply(state, seat, rng.choice(legal))


@GAME_SETTINGS
@given(game=games, choice_seed=st.integers(0, 1000))
def test_every_state_passes_the_conformance_checks(game, choice_seed):
    """Card conservation (jokers and discards included), views JSON-safe and hiding hands and
    the pile, legal actions apply, illegal ones raise and change nothing, JSON round trip."""
    rng = random.Random(choice_seed)
    for n, (state, _seat, _legal) in enumerate(random_play(game, 400, rng)):
        if n % 7 == 0:
            assert check_state(ENG, state, game["players"], rng, sample=2) == []


@GAME_SETTINGS
@given(game=games, choice_seed=st.integers(0, 1000))
def test_cards_are_conserved_and_tables_never_hold_jokers(game, choice_seed):
    deck = Counter(deck_ids(game["options"]["decks"]))
    size = game["options"]["table_cards"]
    for state, _seat, _legal in random_play(game, 400, random.Random(choice_seed)):
        assert Counter(ENG.cards_in_play(state)) == deck
        assert not any(card.startswith("joker") for card in state.table)
        assert len(state.table) <= size
        if state.rules.end == "target":
            assert state.discard == ()


@GAME_SETTINGS
@given(game=games, choice_seed=st.integers(0, 1000))
def test_views_do_not_depend_on_hidden_cards(game, choice_seed):
    rng = random.Random(choice_seed)
    for state, seat, _legal in random_play(game, 300, rng):
        for viewer in (seat, (seat + 1) % game["players"], None):
            shuffled = ENG.shuffle_hidden(state, viewer, rng)
            assert ENG.view(shuffled, viewer) == ENG.view(state, viewer)
            if viewer is not None:
                assert ENG.legal_actions(shuffled, viewer) == ENG.legal_actions(state, viewer)


@pytest.mark.slow  # make test leaves it out; make test-slow and CI run it
@GAME_SETTINGS
@given(game=games, choice_seed=st.integers(0, 1000), junk=st.integers(0, 10**6))
def test_illegal_actions_raise_and_change_nothing(game, choice_seed, junk):
    rng = random.Random(choice_seed)
    for state, seat, legal in random_play(game, 200, rng):
        before = ENG.to_json(state)
        keys = {action_key(a) for a in legal}
        candidates = [
            {"type": "ask", "kana": "joker1"},
            {"type": "ask", "kana": "ga"},
            {"type": "ask", "kana": ["ka"]},
            {"type": "pass", "extra": junk},
            {"type": "form", "word": "ka", "cards": ["ka"], "table": [], "steal": [],
             "joker": None},
            {"type": "form", "word": 7},
            "pass",
            None,
        ]  # fmt: skip
        forms = [a for a in legal if a["type"] == "form"]
        if forms:
            form = forms[junk % len(forms)]
            candidates.append({**form, "joker": "joker9"})
            candidates.append({**form, "steal": [[seat, form["word"]]]})
            candidates.append({**form, "cards": form["cards"][::-1] + ["ka"]})
        for action in candidates:
            if action_key(action) in keys:
                continue
            try:
                ENG.apply(state, seat, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"accepted illegal {action}")
        other = (seat + 1) % game["players"]
        if other not in ENG.to_act(state):
            for action in legal[:3]:
                try:
                    ENG.apply(state, other, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("acted out of turn")
        assert ENG.to_json(state) == before


@GAME_SETTINGS
@given(game=games, choice_seed=st.integers(0, 1000))
def test_every_ask_can_help_and_every_useless_ask_is_refused(game, choice_seed):
    """An ask names a kana a held word needs, of which a copy is outside the hand (one deck:
    never a held kana); every other kana is refused without changing the state."""
    rng = random.Random(choice_seed)
    words = word_index().words
    decks = game["options"]["decks"]
    for state, seat, legal in random_play(game, 150, rng):
        if state.phase != "turn":
            continue
        hand = state.hands[seat]
        held = Counter(base(c) for c in hand if not is_joker(c))
        needed = {k for c in hand if not is_joker(c) for k in words[base(c)].need_kana}
        helpful = {k for k in needed if held[k] < decks}
        assert {a["kana"] for a in legal if a["type"] == "ask"} == helpful
        useless = sorted((needed - helpful) | (set(held) - needed))
        if useless:
            before = ENG.to_json(state)
            kana = rng.choice(useless)
            try:
                ENG.apply(state, seat, {"type": "ask", "kana": kana})
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"asking for {kana} with {hand} was accepted")
            assert ENG.to_json(state) == before


@GAME_SETTINGS
@given(game=games, choice_seed=st.integers(0, 1000))
def test_same_seed_and_actions_give_the_same_game_and_json_round_trips(game, choice_seed):
    first = list(random_play(game, 300, random.Random(choice_seed)))
    second = list(random_play(game, 300, random.Random(choice_seed)))
    assert [s for s, _, _ in first] == [s for s, _, _ in second]
    for state, _seat, _legal in first[::5]:
        data = json.loads(json.dumps(ENG.to_json(state)))
        assert ENG.from_json(data) == state


@pytest.mark.slow  # make test leaves it out; make test-slow and CI run it
def test_thousands_of_random_games_all_end():
    """The round limit bounds every game; most end by the rules themselves."""
    ended = Counter()
    variants = [
        {},
        {"table_cards": 4},
        {"end": "pile_empty"},
        {"decks": 2, "hand_size": 7, "target_points": 20, "table_cards": 5},
        {"end": "pile_empty", "decks": 3, "replay_on_give": True},
        {"max_rounds": 10},
    ]
    for n in range(2000):
        players, options = 2 + n % 3, variants[n % len(variants)]  # 5-6 players: Hypothesis
        rng = random.Random(n)
        state = ENG.new_game(players=players, seed=n, options=options)
        limit = turn_limit(state)
        actions = 0
        while not ENG.is_over(state):
            seat = ENG.to_act(state)[0]
            state, _ = ENG.apply(state, seat, rng.choice(ENG.legal_actions(state, seat)))
            actions += 1
            assert actions < 40 * limit, "a turn that never ends"
        assert state.turns <= limit
        ended[state.ended_by] += 1
    assert sum(ended.values()) == 2000
    assert ended["target"] + ended["pile_empty"] > ended["max_rounds"]
