"""Bōzu Mekuri scenarios on stacked decks: every setting and the combinations that matter."""

import pytest
from bozu_setup import (
    ENG,
    JITO,
    KISEN,
    KOMACHI,
    NOBLES,
    NYUDO,
    SEMIMARU,
    TENJI,
    kinds,
    play,
    stacked,
)

from games.engines import IllegalAction

A, B, C, D = NOBLES[:4]


def test_a_noble_stays_before_you_and_the_turn_passes():
    state, events = play(stacked([A]), "draw")
    assert state.hands == ((A,), ())
    assert ENG.to_act(state) == [1]
    assert events[0] == {"type": "reveal", "seat": 0, "card": A, "effect": "noble"}


def test_a_monk_sends_your_hand_and_himself_to_the_common_pile():
    state, events = play(stacked([KISEN], hands=[[A, B], [C]], common=[D]), "draw")
    assert state.hands == ((), (C,))
    assert state.common == (D, A, B, KISEN)
    assert events[0]["lost"] == 3 and ENG.to_act(state) == [1]


def test_a_lady_takes_her_card_and_the_whole_common_pile():
    state, _ = play(stacked([KOMACHI], hands=[[A], []], common=[B, C]), "draw")
    assert state.hands[0] == (A, KOMACHI, B, C) and state.common == ()
    assert ENG.to_act(state) == [1]


@pytest.mark.parametrize(
    ("lady", "common", "extra"),
    [
        ("take_pile", [], False),
        ("take_pile", [B], False),
        ("take_pile_draw", [], True),
        ("take_pile_draw", [B], True),
        ("draw_if_empty", [], True),
        ("draw_if_empty", [B], False),
    ],
)
def test_a_lady_gives_an_extra_draw_per_the_lady_setting(lady, common, extra):
    state, events = play(stacked([KOMACHI], common=common, lady=lady), "draw")
    assert state.hands[0] == (KOMACHI, *common)
    if extra:
        assert ENG.to_act(state) == [0] and kinds(state, 0) == ["draw", "stop"]
        assert events[-1] == {"type": "extra_draw", "seat": 0}
    else:
        assert ENG.to_act(state) == [1] and kinds(state, 0) == []


def test_an_emperor_is_kept_and_offers_draw_or_stop():
    state, _ = play(stacked([TENJI, A]), "draw")
    assert state.hands[0] == (TENJI,) and kinds(state, 0) == ["draw", "stop"]
    drawn, _ = play(state, "draw")
    assert drawn.hands[0] == (TENJI, A) and ENG.to_act(drawn) == [1]
    stopped, events = play(state, "stop")
    assert stopped.hands[0] == (TENJI,) and ENG.to_act(stopped) == [1]
    assert events == [{"type": "stop", "seat": 0}]


def test_an_emperor_then_a_monk_loses_the_whole_hand_emperor_included():
    state, _ = play(stacked([TENJI, KISEN], hands=[[A], []]), "draw", "draw")
    assert state.hands[0] == () and state.common == (A, TENJI, KISEN)
    assert ENG.to_act(state) == [1]


def test_extra_draws_chain_emperor_after_emperor():
    state, _ = play(stacked([TENJI, "p013"]), "draw", "draw")
    assert state.hands[0] == (TENJI, "p013") and kinds(state, 0) == ["draw", "stop"]


def test_without_stopping_the_extra_draw_is_compulsory_and_stop_is_refused():
    state, _ = play(stacked([TENJI, A], allow_stop=False), "draw")
    assert kinds(state, 0) == ["draw"]
    with pytest.raises(IllegalAction, match="not allowed"):
        ENG.apply(state, 0, {"type": "stop"})
    lady, _ = play(stacked([KOMACHI], lady="take_pile_draw", allow_stop=False), "draw")
    assert kinds(lady, 0) == ["draw"]


def test_emperor_take_hands_takes_every_other_hand():
    state, events = play(
        stacked([TENJI], players=3, hands=[[A], [B], [C, D]], emperor="take_hands"), "draw"
    )
    assert sorted(state.hands[0]) == sorted([A, TENJI, B, C, D]) and state.hands[1:] == ((), ())
    assert events[0]["from_hands"] == 3 and ENG.to_act(state) == [1]


def test_emperor_ordinary_is_a_noble():
    state, _ = play(stacked([TENJI], emperor="ordinary"), "draw")
    assert state.hands[0] == (TENJI,) and ENG.to_act(state) == [1]


@pytest.mark.parametrize(
    ("emperor", "hand", "extra"),
    [
        ("draw_again", [JITO, B], True),  # a lady: takes the common pile, and draws again
        ("take_hands", [JITO, B, C], False),  # takes the common pile and every hand
        ("ordinary", [JITO, B], False),  # a lady only
    ],
)
def test_jito_is_an_emperor_and_a_lady_under_each_emperor_setting(emperor, hand, extra):
    state, _ = play(stacked([JITO], hands=[[], [C]], common=[B], emperor=emperor), "draw")
    assert list(state.hands[0]) == hand and state.common == ()
    assert (kinds(state, 0) == ["draw", "stop"]) is extra


def test_jito_ordinary_follows_the_lady_setting():
    state, _ = play(stacked([JITO], emperor="ordinary", lady="take_pile_draw"), "draw")
    assert kinds(state, 0) == ["draw", "stop"]


def test_semimaru_eliminates_by_default():
    state, events = play(stacked([SEMIMARU], players=3, hands=[[A], [B], []]), "draw")
    assert state.out == (True, False, False) and state.hands[0] == ()
    assert state.common == (A, SEMIMARU) and ENG.to_act(state) == [1]
    state, _ = play(state, "draw", "draw")  # seat 1, seat 2, then seat 0 is passed over
    assert ENG.to_act(state) == [1] and kinds(state, 0) == []


def test_semimaru_skip_keeps_his_card_and_skips_the_next_turn():
    state, _ = play(stacked([SEMIMARU], semimaru="skip"), "draw")
    assert state.hands[0] == (SEMIMARU,) and ENG.to_act(state) == [1]
    state, events = play(state, "draw")  # seat 1 plays; seat 0's turn is skipped
    assert {"type": "skipped", "seat": 0} in events and ENG.to_act(state) == [1]
    state, _ = play(state, "draw")
    assert ENG.to_act(state) == [0]  # only the next turn is skipped


@pytest.mark.parametrize(
    ("semimaru", "hand0", "common"), [("monk", [], [A, SEMIMARU]), ("noble", [A, SEMIMARU], [])]
)
def test_semimaru_like_a_monk_or_a_noble(semimaru, hand0, common):
    state, _ = play(stacked([SEMIMARU], hands=[[A], [B]], semimaru=semimaru), "draw")
    assert list(state.hands[0]) == hand0 and list(state.common) == common
    assert state.out == (False, False)


def test_semimaru_all_hands_sends_every_hand_yours_included():
    state, events = play(
        stacked([SEMIMARU], players=3, hands=[[A], [B], [C]], common=[D], semimaru="all_hands"),
        "draw",
    )
    assert state.hands == ((), (), ()) and state.common == (D, A, B, C, SEMIMARU)
    assert events[0]["lost"] == 4 and state.out == (False, False, False)


def test_the_nyudo_setting_makes_the_two_nyudo_monks():
    kept, _ = play(stacked([NYUDO], hands=[[A], []]), "draw")
    assert kept.hands[0] == (A, NYUDO)
    lost, _ = play(stacked([NYUDO], hands=[[A], []], nyudo_monks=True), "draw")
    assert lost.hands[0] == () and lost.common == (A, NYUDO)


def test_when_everyone_else_is_eliminated_the_last_one_wins():
    state, events = play(stacked([SEMIMARU], hands=[[A, B, C], []]), "draw")
    assert ENG.is_over(state) and events[-1]["reason"] == "last_standing"
    outcome = ENG.outcome(state)
    assert outcome["ranks"] == [2, 1] and outcome["scores"] == [-1, 0]
    assert outcome["draw"] is False and len(state.pile) == 96  # the pile is left unplayed


def test_an_eliminated_player_ranks_below_one_with_no_cards():
    state, _ = play(stacked([SEMIMARU], players=3), "draw")
    deck_left = len(state.pile)
    state, _ = play(state, *["draw"] * deck_left)
    outcome = ENG.outcome(state)
    assert ENG.is_over(state) and outcome["ranks"][0] == 3 and outcome["eliminated"][0]


def _ending(last, *, hands, common=()):
    """A game whose pile is ``last`` only, with everything else placed."""
    placed = set(last) | set(common) | {c for h in hands for c in h}
    rest = [c for c in ENG.deck(None) if c not in placed]
    hands = [list(h) for h in hands]
    hands[-1] += rest
    setup = {"hands": hands, "pile": list(last), "table": list(common), "first": 0}
    return ENG.new_game(players=len(hands), seed=0, options={"setup": setup})


def test_the_empty_pile_ends_the_game_biggest_hand_wins_and_the_common_pile_goes_to_nobody():
    state = _ending([KISEN], hands=[[A, B], [C]], common=[D])
    state, events = play(state, "draw")
    assert ENG.is_over(state) and events[-1]["reason"] == "pile_empty"
    outcome = ENG.outcome(state)
    assert outcome["ranks"] == [2, 1] and outcome["common_left"] == 4
    assert sum(outcome["cards"]) + outcome["common_left"] == 100


def test_equal_counts_share_the_rank():
    state = _ending([A], hands=[[B], [C, D], []])
    state, _ = play(state, "draw")  # seat 0 draws A: 2 cards, like seat 1; seat 2 has the rest
    assert ENG.outcome(state)["ranks"] == [2, 2, 1] and not ENG.outcome(state)["draw"]


def test_a_tie_for_first_is_a_draw():
    state = _ending([A], hands=[[], []])
    hand1 = list(state.hands[1])
    half = hand1[:49]
    setup = {"hands": [half, hand1[49:]], "pile": [A], "table": [], "first": 0}
    state = ENG.new_game(players=2, seed=0, options={"setup": setup})
    state, _ = play(state, "draw")
    outcome = ENG.outcome(state)
    assert outcome["cards"] == [50, 50] and outcome["ranks"] == [1, 1] and outcome["draw"]


def test_an_extra_draw_with_an_empty_pile_ends_the_game():
    state, events = play(_ending([TENJI], hands=[[], []]), "draw")
    assert ENG.is_over(state) and events[-1]["type"] == "game_over"


def _left(pile, common=()):
    placed = set(pile) | set(common)
    others = [c for c in ENG.deck(None) if c not in placed]
    setup = {"hands": [others, []], "pile": list(pile), "table": list(common), "first": 0}
    return ENG.view(ENG.new_game(players=2, seed=0, options={"setup": setup}), 1)


def test_semimaru_warning_shows_with_fifteen_cards_left_until_he_appears():
    assert _left([*NOBLES[:15], SEMIMARU])["semimaru_warning"] is False  # 16 left
    warned = _left([*NOBLES[:14], SEMIMARU])
    assert warned["pile_size"] == 15 and warned["semimaru_warning"] is True
    assert _left(NOBLES[:15], common=[SEMIMARU])["semimaru_warning"] is False  # he appeared


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"type": "draw"}, "not your turn"),
        (0, {"type": "stop"}, "only stop"),
        (0, {"type": "draw", "card": "p003"}, "Unknown action"),
        (0, "draw", "Unknown action"),
        (True, {"type": "draw"}, "no seat"),
        (7, {"type": "draw"}, "no seat"),
    ],
)
def test_refused_actions_say_why_and_change_nothing(seat, action, message):
    state = stacked([A])
    before = ENG.to_json(state)
    with pytest.raises(IllegalAction, match=message):
        ENG.apply(state, seat, action)
    assert ENG.to_json(state) == before


def test_nothing_may_be_played_once_the_game_is_over():
    state, _ = play(stacked([SEMIMARU]), "draw")
    with pytest.raises(IllegalAction, match="over"):
        ENG.apply(state, 1, {"type": "draw"})


@pytest.mark.parametrize(
    "options",
    [
        {"semimaru": "vanish"},
        {"emperor": 3},
        {"lady": "take_all"},
        {"allow_stop": "yes"},
        {"colour": "red"},
        {"setup": {"hands": [[], []], "pile": ["p001"], "table": [], "first": 0}},
        {"setup": {"hands": [[], []], "pile": [], "table": list(ENG.deck(None)), "first": 0}},
    ],
)
def test_invalid_options_and_setups_are_refused(options):
    with pytest.raises(ValueError):
        ENG.new_game(players=2, seed=0, options=options)


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players):
    with pytest.raises(ValueError, match="2 to 6"):
        ENG.new_game(players=players, seed=0)
