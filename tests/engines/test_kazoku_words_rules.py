"""Scenario tests of the Kazoku word game with stacked decks (``options["setup"]``).

Words used here (card: word, kana): i: いぬ (i nu), ne: ねこ (ne ko), ki: きつね (ki tsu ne),
tsu: おやつ (o ya tsu), ku: くつした (ku tsu shi ta), shi: はし (ha shi), mo: もみじ☆ (mo mi +ji),
ta: かたかな☆ (ka ta ka na), ko: こいのぼり☆ (ko i no +bo ri), a: あたま (a ta ma).
"""

import json
from collections import Counter
from dataclasses import replace

import pytest

from games.engines import IllegalAction, get_engine
from games.engines.kazoku.index import deck_ids

ENG = get_engine("kazoku-words")


def deal(hands, *, pile_top=(), table=(), first=0, pile=None, **options):
    """A game with ``hands`` dealt, ``pile_top`` drawn first, then the rest of the deck."""
    deck = Counter(deck_ids(options.get("decks", 1)))
    placed = Counter(c for hand in hands for c in hand) + Counter(pile_top) + Counter(table)
    if pile is None:
        rest = deck - placed
        pile = list(pile_top) + [c for c in deck_ids(options.get("decks", 1)) if rest[c] > 0]
    setup = {"hands": [list(h) for h in hands], "pile": pile, "table": list(table), "first": first}
    options.setdefault("table_cards", len(table))
    return ENG.new_game(players=len(hands), seed=0, options={**options, "setup": setup})


def with_scored(state, scored):
    """Move cards from the pile to the seats' scored word cards (a mid-game position)."""
    moved = [c for cards in scored.values() for c in cards]
    rows = [tuple(scored.get(seat, ())) for seat in range(state.players)]
    return replace(state, pile=tuple(c for c in state.pile if c not in moved), scored=tuple(rows))


def forms(state, seat=0):
    return [a for a in ENG.legal_actions(state, seat) if a["type"] == "form"]


def form_of(state, word, seat=0, **match):
    found = [f for f in forms(state, seat) if f["word"] == word]
    found = [f for f in found if all(f[k] == v for k, v in match.items())]
    assert found, f"no form of {word} with {match} among {forms(state, seat)}"
    return found[0]


def play(state, seat, action):
    new, events = ENG.apply(state, seat, action)
    return new, events


def kinds(events):
    return [e["type"] for e in events]


# --- asking -------------------------------------------------------------------------------------


def test_one_may_only_ask_for_a_kana_of_a_held_word():
    state = deal([["i", "a"], ["nu", "ke"]])
    asks = sorted(a["kana"] for a in ENG.legal_actions(state, 0) if a["type"] == "ask")
    assert asks == ["ma", "nu", "ta"]  # いぬ needs nu, あたま needs ta and ma
    with pytest.raises(IllegalAction):
        ENG.apply(state, 0, {"type": "ask", "kana": "ka"})  # in no held word
    with pytest.raises(IllegalAction):
        ENG.apply(state, 0, {"type": "ask", "kana": "i"})  # the word card's own kana


def test_with_one_deck_a_kana_already_held_cannot_be_asked_for():
    # あたま needs ta and ma; ta is in hand: with one deck nobody else can have it
    state = deal([["a", "ta"], ["ma", "ke"]])
    assert asked(state) == {"ka", "ma", "na"}  # かたかな on the ta card needs ka and na
    with pytest.raises(IllegalAction, match="helps"):
        ENG.apply(state, 0, {"type": "ask", "kana": "ta"})
    # かたかな needs ka twice: one ka held, one deck: the other ka does not exist
    state = deal([["ta", "ka"], ["na", "ke"]])
    assert asked(state) == {"na", "ra", "te"}  # からて on the ka card needs ra and te
    before = ENG.to_json(state)
    with pytest.raises(IllegalAction):
        ENG.apply(state, 0, {"type": "ask", "kana": "ka"})
    assert ENG.to_json(state) == before


def test_with_several_decks_a_second_copy_may_be_asked_for_when_it_helps():
    # かたかな needs ka twice: holding one ka, a second copy from the other deck helps
    state = deal([["ta", "ka"], ["ka.2", "ke"]], decks=2)
    assert asked(state) == {"ka", "na", "ra", "te"}
    state, events = play(state, 0, {"type": "ask", "kana": "ka"})
    assert {"type": "give", "seat": 1, "to": 0, "card": "ka.2"} in events
    # two held words each using ka (すいか and からて): a second ka helps the other one
    state = deal([["su", "i", "ka"], ["ke", "ra"]], decks=2)
    assert "ka" in asked(state)
    # あたま needs ta, also a word card of its own (かたかな): a second ta keeps that word
    assert "ta" in asked(deal([["a", "ta.2"], ["ta", "ke"]], decks=2))


def test_with_several_decks_a_held_kana_is_refused_once_every_copy_is_in_hand():
    state = deal([["a", "ta", "ta.2"], ["ma", "ke"]], decks=2)
    assert "ta" not in asked(state)
    with pytest.raises(IllegalAction):
        ENG.apply(state, 0, {"type": "ask", "kana": "ta"})
    state = deal([["ta", "ka", "ka.2", "ka.3"], ["na", "ke"]], decks=3)
    assert asked(state) == {"na", "ra", "te"}
    assert "ka" in asked(deal([["ta", "ka", "ka.2"], ["na", "ke"]], decks=3))


def asked(state, seat=0):
    return {a["kana"] for a in ENG.legal_actions(state, seat) if a["type"] == "ask"}


def test_jokers_and_kana_on_no_card_cannot_be_asked_for():
    state = deal([["mo", "joker1"], ["mi"]])
    for kana in ("joker1", "ji", "joker"):
        with pytest.raises(IllegalAction):
            ENG.apply(state, 0, {"type": "ask", "kana": kana})
    assert [a["kana"] for a in ENG.legal_actions(state, 0) if a["type"] == "ask"] == ["mi"]


def test_a_holder_gives_the_kana_and_draws_a_replacement_then_the_asker_may_form():
    state = deal([["i", "a"], ["nu", "ke"], ["ko"]], pile_top=["so"])
    state, events = play(state, 0, {"type": "ask", "kana": "nu"})
    assert kinds(events) == ["ask", "give", "draw", "draw"]
    assert state.hands[0] == ("i", "a", "nu") and state.hands[1] == ("ke", "so")
    assert state.phase == "after_ask" and ENG.to_act(state) == [0]
    assert {"type": "pass"} in ENG.legal_actions(state, 0)
    assert not [a for a in ENG.legal_actions(state, 0) if a["type"] == "ask"]  # no replay
    state, events = play(state, 0, form_of(state, "i"))
    assert state.scored[0] == ("i",) and ENG.outcome(state)["scores"][0] == 1
    assert state.pile[-1] == "nu" and "nu" not in state.hands[0]
    assert ENG.to_act(state) == [1]


def test_the_first_holder_clockwise_gives_when_several_hold_the_kana():
    state = deal([["nu"], ["i"], ["ke"], ["nu.2"]], first=1, decks=2)
    state, events = play(state, 1, {"type": "ask", "kana": "nu"})
    assert [e for e in events if e["type"] == "give"] == [
        {"type": "give", "seat": 3, "to": 1, "card": "nu.2"}
    ]
    assert state.hands[1] == ("i", "nu.2") and state.hands[0] == ("nu",)


def test_replay_on_give_lets_the_asker_ask_again():
    state = deal([["i", "a"], ["nu"]], replay_on_give=True)
    state, _ = play(state, 0, {"type": "ask", "kana": "nu"})
    assert state.phase == "turn" and ENG.to_act(state) == [0]
    assert any(a["type"] == "ask" for a in ENG.legal_actions(state, 0))


def test_bonne_pioche_plays_again():
    state = deal([["i", "a"], ["ke"]], pile_top=["nu"])
    state, events = play(state, 0, {"type": "ask", "kana": "nu"})
    assert kinds(events) == ["ask", "no_card", "draw", "draw", "good_pick"]
    assert state.phase == "turn" and ENG.to_act(state) == [0]
    legal = ENG.legal_actions(state, 0)
    assert any(a["type"] == "ask" for a in legal) and any(a["type"] == "form" for a in legal)


def test_a_plain_draw_that_forms_nothing_passes_the_turn_at_once():
    state = deal([["i", "a"], ["ke"]], pile_top=["so"])
    state, _ = play(state, 0, {"type": "ask", "kana": "nu"})
    assert state.hands[0] == ("i", "a", "so") and ENG.to_act(state) == [1]
    assert state.phase == "turn" and state.turns == 1


def test_a_plain_draw_that_completes_a_word_allows_forming_or_passing():
    state = deal([["ne", "a"], ["ke"]], pile_top=["ko"])
    state, _ = play(state, 0, {"type": "ask", "kana": "ta"})
    assert state.phase == "after_ask"
    assert [f["word"] for f in forms(state)] == ["ne"]
    passed, _ = play(state, 0, {"type": "pass"})
    assert ENG.to_act(passed) == [1] and passed.hands[0] == ("ne", "a", "ko")


def test_private_draws_reach_only_the_drawer():
    state = deal([["i", "a"], ["ke"], ["ko"]], pile_top=["so"])
    state, _ = play(state, 0, {"type": "ask", "kana": "nu"})
    mine = [e for e in ENG.view(state, 0)["log"] if e["type"] == "draw"]
    theirs = [e for e in ENG.view(state, 1)["log"] if e["type"] == "draw"]
    assert mine[0]["card"] == "so"
    assert theirs == [{"type": "draw", "seat": 0, "except": 0}]


def test_an_empty_hand_draws():
    state = deal([[], ["ke"]], pile_top=["so"])
    assert ENG.legal_actions(state, 0) == [{"type": "draw"}]
    state, _ = play(state, 0, {"type": "draw"})
    assert state.hands[0] == ("so",) and ENG.to_act(state) == [1]  # nothing to form: passes


def test_an_empty_hand_draw_may_complete_a_word_like_any_plain_draw():
    state = deal([[], ["ke"]], pile_top=["ne"], table=["ko", "a", "u"], table_cards=3)
    state, _ = play(state, 0, {"type": "draw"})
    assert ENG.to_act(state) == [0]  # NE drawn, KO on the table: ねこ may be formed
    assert {a["type"] for a in ENG.legal_actions(state, 0)} == {"form", "pass"}
    assert form_of(state, "ne")["cards"] == ["ne", "ko"]


# --- forming words ------------------------------------------------------------------------------


def test_only_one_word_per_turn():
    state = deal([["ne", "ko", "i", "nu"], ["ke"]])
    assert {f["word"] for f in forms(state)} == {"ne", "i"}
    state, _ = play(state, 0, form_of(state, "ne"))
    assert ENG.to_act(state) == [1] and ENG.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        ENG.apply(state, 0, {"type": "form", "word": "i", "cards": ["i", "nu"], "table": [],
                             "steal": [], "joker": None})  # fmt: skip


def test_a_form_action_names_every_card_in_word_order():
    state = deal([["ki", "ne", "tsu"], ["ke"]])
    action = form_of(state, "ki")
    assert action == {
        "type": "form", "word": "ki", "cards": ["ki", "tsu", "ne"], "table": [], "steal": [],
        "joker": None,
    }  # fmt: skip
    state, events = play(state, 0, action)
    assert state.pile[-2:] == ("tsu", "ne")
    assert events[0]["points"] == 2


def test_returned_actions_and_events_are_the_callers_to_change():
    state = deal([["ki", "ne", "tsu"], ["ke"]])
    action = form_of(state, "ki")
    action["cards"].append("zz")  # a caller changing a listed action...
    assert form_of(state, "ki")["cards"] == ["ki", "tsu", "ne"]  # ...changes no later answer
    state, events = play(state, 0, form_of(state, "ki"))
    log = json.dumps(ENG.to_json(state)["log"])
    events[0]["points"] = 99  # nor does changing a returned event alter the game's log
    assert json.dumps(ENG.to_json(state)["log"]) == log


def test_a_star_word_needs_a_joker_and_the_joker_never_stands_for_the_word_card():
    assert not forms(deal([["mo", "mi"], ["ke"]]))
    action = form_of(deal([["mo", "mi", "joker2", "joker1"], ["ke"]]), "mo")
    assert action["cards"] == ["mo", "mi", "joker1"] and action["joker"] == "joker1"
    assert not forms(deal([["mi", "joker1", "joker2"], ["ke"]]))  # no mo card


def test_only_one_joker_per_word():
    state = deal([["ko", "i", "no", "joker1", "joker2"], ["ke"]])
    assert "ko" not in {f["word"] for f in forms(state)}  # ぼ and り would take two jokers
    state = deal([["ko", "i", "no", "ri", "joker1"], ["ke"]])
    assert form_of(state, "ko")["cards"] == ["ko", "i", "no", "joker1", "ri"]


def test_a_doubled_kana_takes_a_joker_or_a_copy_from_another_deck():
    one = deal([["ta", "ka", "na", "joker1"], ["ke"]])
    assert form_of(one, "ta")["cards"] == ["ka", "ta", "joker1", "na"]
    two = deal([["ta", "ka", "ka.2", "na"], ["ke"]], decks=2)
    assert form_of(two, "ta")["cards"] == ["ka", "ta", "ka.2", "na"]


def test_a_joker_may_stand_for_a_kana_the_hand_holds_which_is_then_kept():
    # both texts: a joker replaces "any kana" ("n'importe quel kana"), but the word card's
    state = deal([["ne", "ko", "joker1", "joker2"], ["ke"]])
    assert forms(state) == [
        {"type": "form", "word": "ne", "cards": ["ne", "ko"], "table": [], "steal": [],
         "joker": None},
        {"type": "form", "word": "ne", "cards": ["ne", "joker1"], "table": [], "steal": [],
         "joker": "joker1"},
    ]  # fmt: skip
    after, _ = play(state, 0, forms(state)[1])
    assert after.hands[0] == ("ko", "joker2")  # the KO card stays in hand for another word
    assert after.pile[-1:] == ("joker1",)
    assert not forms(deal([["ko", "joker1"], ["ke"]]))  # never for the word card (no NE card)


def test_a_joker_used_goes_under_the_pile_with_the_other_cards():
    state = deal([["mo", "mi", "joker1"], ["ke"]])
    state, _ = play(state, 0, form_of(state, "mo"))
    assert state.pile[-2:] == ("mi", "joker1") and ENG.outcome(state)["scores"][0] == 3


def test_reaching_the_target_ends_the_game():
    state = with_scored(deal([["ki", "tsu", "ne"], ["ke"]], target_points=5), {0: ["ku"]})
    state, _ = play(state, 0, form_of(state, "ki"))
    assert ENG.is_over(state) and ENG.to_act(state) == []
    assert ENG.outcome(state) == {"scores": [5, 0], "ranks": [1, 2], "ended_by": "target"}


# --- stealing -----------------------------------------------------------------------------------


def test_stealing_a_shorter_word_card_for_its_kana():
    state = with_scored(deal([["ki", "tsu"], ["ke"]]), {1: ["ne"]})
    action = form_of(state, "ki")
    assert action["steal"] == [[1, "ne"]] and action["cards"] == ["ki", "tsu", "ne"]
    state, _ = play(state, 0, action)
    assert state.scored == (("ki",), ())
    assert ENG.outcome(state)["scores"] == [2, 0]
    assert state.pile[-2:] == ("tsu", "ne")  # the stolen card goes under the pile too


def test_a_word_card_of_the_same_length_cannot_be_stolen():
    state = with_scored(deal([["ki", "ne"], ["ke"]]), {1: ["tsu"]})  # おやつ: 3 kana
    assert not forms(state)
    with pytest.raises(IllegalAction):
        ENG.apply(state, 0, {"type": "form", "word": "ki", "cards": ["ki", "tsu", "ne"],
                             "table": [], "steal": [[1, "tsu"]], "joker": None})  # fmt: skip


def test_one_steal_per_opponent():
    same = with_scored(deal([["ku", "ta"], ["ke"], ["so"]]), {1: ["tsu", "shi"]})
    assert not forms(same)
    split = with_scored(deal([["ku", "ta"], ["ke"], ["so"]]), {1: ["tsu"], 2: ["shi"]})
    action = form_of(split, "ku")
    assert action["steal"] == [[1, "tsu"], [2, "shi"]]
    state, _ = play(split, 0, action)
    assert ENG.outcome(state)["scores"] == [3, 0, 0]


def test_steal_and_own_card_are_distinct_choices():
    state = with_scored(deal([["ki", "tsu", "ne"], ["ke"]]), {1: ["ne"]})
    steals = sorted(f["steal"] for f in forms(state) if f["word"] == "ki")
    assert steals == [[], [[1, "ne"]]]


# --- table cards --------------------------------------------------------------------------------


def test_table_cards_complete_a_word_and_are_refilled_from_the_pile():
    state = deal([["i", "a"], ["ke"]], table=["nu", "ko", "sa"], pile_top=["he"])
    action = form_of(state, "i")
    assert action["table"] == ["nu"]
    state, events = play(state, 0, action)
    assert state.table == ("ko", "sa", "he")
    assert {"type": "table", "cards": ["he"]} in ENG.view(state, 1)["log"]
    assert state.pile[-1] == "nu"


def test_a_table_card_can_be_the_word_card():
    state = deal([["ko"], ["ke"]], table=["ne", "so", "sa"], pile_top=["he"])
    action = form_of(state, "ne")
    assert action["table"] == ["ne"] and action["cards"] == ["ne", "ko"]
    state, _ = play(state, 0, action)
    assert state.scored[0] == ("ne",) and state.hands[0] == ()


def test_a_joker_drawn_for_the_table_goes_back_into_the_middle_of_the_pile():
    state = deal([["i"], ["ke"]], table=["nu", "ne", "sa"], pile_top=["joker1", "ha"])
    state, events = play(state, 0, form_of(state, "i"))
    assert state.table == ("ne", "sa", "ha")
    assert "joker1" not in state.table
    assert state.pile.index("joker1") == (len(state.pile) - 1) // 2
    assert {"type": "joker_back", "count": 1} in events


def test_the_first_table_never_holds_a_joker():
    for seed in range(40):
        state = ENG.new_game(players=4, seed=seed, options={"table_cards": 5})
        assert len(state.table) == 5 and not any(c.startswith("joker") for c in state.table)


def test_a_stacked_table_must_match_the_option_and_hold_no_joker():
    with pytest.raises(ValueError, match="joker"):
        deal([["i"], ["ke"]], table=["joker1", "ne", "sa"])
    with pytest.raises(ValueError, match="3 cards"):
        deal([["i"], ["ke"]], table=["ne", "sa"], table_cards=3)


# --- end = pile_empty -----------------------------------------------------------------------------


def everything_but(*taken):
    used = Counter(c for cards in taken for c in cards)
    return [c for c in deck_ids(1) if not used[c]]


def test_pile_empty_last_words_round_without_stealing_then_the_game_ends():
    seat0 = ["i", "ki", "tsu"]
    seat1 = everything_but(seat0, ["ne", "so"])
    state = deal([seat0, seat1], pile=["so", "ne"], end="pile_empty")
    state = with_scored(state, {1: ["ne"]})  # seat 1 has scored ねこ; the pile is ["so"]
    assert form_of(state, "ki")["steal"] == [[1, "ne"]]
    state, events = play(state, 0, {"type": "ask", "kana": "nu"})  # seat 1 gives, draws "so"
    assert state.pile == () and state.phase == "last_words" and state.last_words == (0, 1)
    assert "last_words" in kinds(events)
    assert "ki" not in {f["word"] for f in forms(state)}  # no stealing any more
    state, _ = play(state, 0, form_of(state, "i"))
    assert state.discard == ("nu",) and ENG.to_act(state) == [1]
    state, _ = play(state, 1, {"type": "pass"})
    assert ENG.is_over(state) and ENG.outcome(state)["ended_by"] == "pile_empty"
    assert ENG.outcome(state)["ranks"] == [1, 1]  # 1 point each: a shared first place


def test_pile_empty_variant_discards_used_cards_out_of_the_game():
    state = deal([["i", "nu", "joker1"], ["ke"]], end="pile_empty")
    pile = state.pile
    state, _ = play(state, 0, form_of(state, "i"))
    assert state.discard == ("nu",) and state.pile == pile
    assert ENG.view(state, 1)["discard"] == ["nu"]


def test_pile_empty_variant_ignores_the_target():
    state = with_scored(deal([["ki", "tsu", "ne"], ["ke"]], end="pile_empty", target_points=5),
                        {0: ["ku"]})  # fmt: skip
    state, _ = play(state, 0, form_of(state, "ki"))
    assert not ENG.is_over(state) and ENG.to_act(state) == [1]


# --- the round limit ------------------------------------------------------------------------------


def test_the_round_limit_ends_the_game_with_the_highest_score_winning():
    state = with_scored(deal([["i", "a"], ["ke"]], pile_top=["so"], max_rounds=10), {1: ["ne"]})
    state = replace(state, turns=19)
    state, _ = play(state, 0, {"type": "ask", "kana": "nu"})
    assert ENG.is_over(state)
    assert ENG.outcome(state) == {"scores": [0, 1], "ranks": [2, 1], "ended_by": "max_rounds"}


# --- decks, options, reading --------------------------------------------------------------------


def test_extra_decks_carry_suffixed_ids_and_their_own_jokers():
    ids = deck_ids(3)
    assert len(ids) == 3 * 49 and len(set(ids)) == len(ids)
    assert {"ka", "ka.2", "ka.3", "joker4", "joker4.2", "joker4.3"} <= set(ids)
    state = ENG.new_game(players=3, seed=5, options={"decks": 2})
    assert Counter(ENG.cards_in_play(state)) == Counter(deck_ids(2))
    with pytest.raises(ValueError, match="exactly the deck"):
        deal([["i"], ["ke"]], pile=["so"], decks=2)


def test_the_automatic_round_limit_grows_with_the_decks():
    one = ENG.new_game(players=2, seed=1, options={})
    three = ENG.new_game(players=2, seed=1, options={"decks": 3})
    assert ENG.view(one, 0)["max_turns"] == 120 and ENG.view(three, 0)["max_turns"] == 360


@pytest.mark.parametrize(
    "options",
    [
        {"max_rounds": 5},
        {"table_cards": 2},
        {"table_cards": 6},
        {"end": "first_word"},
        {"decks": 4},
        {"script": "romaji"},
        {"colour": "red"},
        {"hand_size": 12, "table_cards": 5},
    ],
)
def test_invalid_options_are_refused(options):
    with pytest.raises(ValueError):
        ENG.new_game(players=4, seed=1, options=options)


def test_views_hide_other_hands_and_the_pile():
    state = ENG.new_game(players=3, seed=3, options={"table_cards": 3})
    view = ENG.view(state, 1)
    assert view["hand"] == list(state.hands[1])
    assert view["hand_sizes"] == [6, 6, 6] and view["pile_count"] == len(state.pile)
    text = str(view)
    for seat in (0, 2):
        hidden = set(state.hands[seat]) - set(state.hands[1]) - set(state.table)
        assert not any(f"'{card}'" in text for card in hidden)
    assert ENG.view(state, None)["hand"] is None


def test_kana_on_shows_the_card_kana_only():
    assert ENG.kana_on("ka", {}) == ["ka"]
    assert ENG.kana_on("shi.3", {}) == ["shi"]
    assert ENG.kana_on("joker2", {}) == []


def test_mixed_script_is_drawn_once_per_game_and_seeded():
    a = ENG.new_game(players=2, seed=9, options={"script": "mixed"})
    b = ENG.new_game(players=2, seed=9, options={"script": "mixed"})
    assert a.scripts == b.scripts and set(a.scripts) == {"h", "k"}
    assert ENG.view(a, 0)["scripts"] == a.scripts


# --- who plays first ------------------------------------------------------------------------


def test_the_youngest_player_seat_chosen_at_the_table_plays_first():
    state = ENG.new_game(players=4, seed=3, options={"first": 2})
    assert ENG.to_act(state) == [2] and state.log[0] == {"type": "start", "seat": 2,
                                                          "table": ()}  # fmt: skip
    assert ENG.to_act(ENG.new_game(players=4, seed=3, options={})) == [0]
    with pytest.raises(ValueError, match="first"):
        ENG.new_game(players=3, seed=3, options={"first": 3})


def test_a_random_first_player_is_drawn_from_the_seed():
    firsts = {
        ENG.to_act(ENG.new_game(players=4, seed=seed, options={"start": "random"}))[0]
        for seed in range(40)
    }
    assert firsts == {0, 1, 2, 3}
    again = ENG.new_game(players=4, seed=11, options={"start": "random"})
    assert ENG.to_json(again) == ENG.to_json(
        ENG.new_game(players=4, seed=11, options={"start": "random"})
    )
    # the deal does not depend on who starts: the random seat is drawn after it
    youngest = ENG.new_game(players=4, seed=11, options={})
    assert again.hands == youngest.hands and again.pile == youngest.pile


def test_a_stacked_deal_names_the_first_seat_itself():
    state = deal([["i", "a"], ["nu", "ke"], ["ne", "ko"]], first=1, start="random")
    assert ENG.to_act(state) == [1]
