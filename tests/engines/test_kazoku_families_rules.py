"""Scenario tests for every Kazoku families rule, on stacked decks (``options["setup"]``)."""

import json

import pytest
from kazoku_setup import DECK, ENG, events_of, rest_of_deck, stacked

from games.engines import IllegalAction

KA = ["ka", "ki", "ku", "ke", "ko"]
GOJUON_A = ["a", "ka", "sa", "ta", "na", "ha", "ma", "ya", "ra", "wa"]


def refused(state, seat, action, match):
    before = ENG.to_json(state)
    with pytest.raises(IllegalAction, match=match) as caught:
        ENG.apply(state, seat, action)
    assert caught.value.message
    assert ENG.to_json(state) == before
    return caught.value


def ask(target, card):
    return {"type": "ask", "target": target, "card": card}


# --- asking -----------------------------------------------------------------------------------


def test_it_refuses_asking_for_a_family_you_do_not_hold():
    state = stacked([["ka", "sa"], ["ta", "chi"]], variant="kana")
    error = refused(state, 0, ask(1, "ta"), "family you already hold")
    assert "TA family" in error.message
    assert ask(1, "ta") not in ENG.legal_actions(state, 0)


def test_it_refuses_asking_for_a_card_you_hold():
    state = stacked([["ka", "ki"], ["ta"]], variant="kana")
    refused(state, 0, ask(1, "ki"), "already hold KI")


def test_it_refuses_bad_targets_turns_and_shapes():
    state = stacked([["ka"], ["ta"], ["na"]], variant="kana")
    refused(state, 0, ask(0, "ki"), "not one of your opponents")
    refused(state, 0, ask(3, "ki"), "not one of your opponents")
    refused(state, 1, ask(0, "chi"), "not your turn")
    refused(state, 0, ask(1, "zz"), "no card")
    refused(state, 0, {"type": "ask", "target": 1, "card": "ki", "extra": 1}, "exactly one")
    refused(state, 0, {"type": "fly"}, "Unknown action")
    refused(state, 0, "ask", "Unknown action")
    refused(state, 0, {"type": "lay"}, "no complete family")


def test_a_given_card_moves_and_the_asker_plays_again():
    state = stacked([["ka"], ["ki", "ta"], ["na"]], variant="kana")
    after, events = ENG.apply(state, 0, ask(1, "ki"))
    assert [e["type"] for e in events] == ["ask", "given"]
    assert events[0] == {"type": "ask", "seat": 0, "target": 1, "card": "ki", "family": "ka"}
    assert events[1] == {"type": "given", "seat": 1, "to": 0, "card": "ki"}
    assert after.hands[0] == ("ka", "ki") and after.hands[1] == ("ta",)
    assert ENG.to_act(after) == [0]


def test_a_miss_draws_and_the_turn_passes_with_the_card_private():
    state = stacked([["ka"], ["ta"], ["na"]], pile_top=["mu"], variant="kana")
    after, events = ENG.apply(state, 0, ask(2, "ki"))
    assert [e["type"] for e in events][:3] == ["ask", "go_fish", "draw"]
    assert after.hands[0] == ("ka", "mu")
    assert ENG.to_act(after) == [1]
    own = [e for e in ENG.view(after, 0)["log"] if e["type"] == "draw"]
    other = [e for e in ENG.view(after, 1)["log"] if e["type"] == "draw"]
    watcher = [e for e in ENG.view(after, None)["log"] if e["type"] == "draw"]
    assert own == [{"type": "draw", "seat": 0, "card": "mu", "reason": "go_fish", "private_to": 0}]
    assert other == watcher == [{"type": "draw", "seat": 0, "reason": "go_fish", "except": 0}]


def test_a_good_pick_is_shown_to_everyone_and_replays():
    state = stacked([["ka"], ["ta"], ["na"]], pile_top=["ki"], variant="kana")
    after, events = ENG.apply(state, 0, ask(1, "ki"))
    assert {"type": "good_pick", "seat": 0, "card": "ki"} in events
    assert ENG.to_act(after) == [0]
    for seat in (1, 2, None):
        assert {"type": "good_pick", "seat": 0, "card": "ki"} in ENG.view(after, seat)["log"]


def test_an_empty_pile_makes_the_asker_pass():
    hands = [["ka", "sa"], rest_of_deck(["ka", "sa"], ["ki"]), ["ki"]]
    state = stacked(hands, pile=[], variant="kana")
    after, events = ENG.apply(state, 0, ask(1, "ki"))
    assert [e["type"] for e in events] == ["ask", "go_fish", "pass", "turn"]
    assert events[2] == {"type": "pass", "seat": 0, "reason": "pile_empty"}
    assert after.hands[0] == ("ka", "sa") and ENG.to_act(after) == [1]
    assert not ENG.is_over(after)  # French end: the game goes on without a pile


# --- laying -----------------------------------------------------------------------------------


def test_laying_is_offered_once_complete_and_ends_the_turn():
    state = stacked([["ka", "ki", "ku", "ke", "sa"], ["ko"], ["na"]], variant="kana")
    assert {"type": "lay"} not in ENG.legal_actions(state, 0)
    state, _ = ENG.apply(state, 0, ask(1, "ko"))
    legal = ENG.legal_actions(state, 0)
    assert {"type": "lay"} in legal and ask(2, "shi") in legal  # the player chooses when
    after, events = ENG.apply(state, 0, {"type": "lay"})
    laid = events_of(events, "family_laid")
    assert laid == [{"type": "family_laid", "seat": 0, "family": "ka", "cards": KA, "auto": False}]
    assert after.hands[0] == ("sa",) and after.laid[0] == ("ka",)
    assert ENG.to_act(after) == [1]


def test_returned_actions_and_events_are_the_callers_to_change():
    state = stacked([["ka", "ki", "ku", "ke", "sa"], ["ko"], ["na"]], variant="kana")
    ENG.legal_actions(state, 0)[0]["card"] = "zz"  # a caller changing a listed action...
    assert ask(1, "ko") in ENG.legal_actions(state, 0)  # ...changes no later answer
    state, _ = ENG.apply(state, 0, ask(1, "ko"))
    after, events = ENG.apply(state, 0, {"type": "lay"})
    log = json.dumps(ENG.to_json(after)["log"])
    view = ENG.view(after, 0)
    for event in events + view["log"]:  # nor does changing a returned event or a view's log
        event["seat"] = 9
        for value in event.values():
            if isinstance(value, list):
                value.append("zz")
    assert json.dumps(ENG.to_json(after)["log"]) == log


def test_a_complete_family_still_held_is_laid_when_the_turn_ends():
    state = stacked([["ka", "ki", "ku", "ke", "sa"], ["ko"], ["na"]], ["mu"], variant="kana")
    state, _ = ENG.apply(state, 0, ask(1, "ko"))
    after, events = ENG.apply(state, 0, ask(2, "shi"))  # miss: draws mu, turn ends
    assert events_of(events, "family_laid")[0]["auto"] is True
    assert after.laid[0] == ("ka",) and after.hands[0] == ("sa", "mu")
    assert ENG.view(after, 1)["scores"] == [1, 0, 0]


def test_with_immediate_laying_a_completed_family_is_laid_at_once():
    state = stacked([["ka", "ki", "ku", "ke", "sa"], ["ko"]], variant="kana", lay="immediate")
    after, events = ENG.apply(state, 0, ask(1, "ko"))
    assert events_of(events, "family_laid")[0]["family"] == "ka"
    assert after.laid[0] == ("ka",) and ENG.to_act(after) == [1]


def test_with_immediate_laying_a_dealt_family_must_be_laid_first():
    state = stacked([KA + ["sa"], ["ta"]], variant="kana", lay="immediate")
    assert ENG.legal_actions(state, 0) == [{"type": "lay"}]
    refused(state, 0, ask(1, "shi"), "Lay your complete family first")


# --- variants ---------------------------------------------------------------------------------


def test_gojuon_families_of_unequal_size_complete_correctly():
    eight_of_a = GOJUON_A[:8]  # a .. ya
    seven_of_i = ["i", "ki", "shi", "chi", "ni", "hi", "mi"]
    state = stacked([eight_of_a + seven_of_i, ["ra", "ri"]], variant="gojuon")
    assert {"type": "lay"} not in ENG.legal_actions(state, 0)
    state, _ = ENG.apply(state, 0, ask(1, "ri"))  # the I family has 8 cards: complete
    assert {"type": "lay"} in ENG.legal_actions(state, 0)
    state, _ = ENG.apply(state, 0, ask(1, "ra"))  # A now has 9 of its 10
    assert ask(1, "wa") in ENG.legal_actions(state, 0)
    after, events = ENG.apply(state, 0, {"type": "lay"})
    laid = {e["family"]: e["cards"] for e in events_of(events, "family_laid")}
    assert laid == {"i": seven_of_i + ["ri"]}
    assert after.hands[0] == tuple(GOJUON_A[:9])


def test_gojuon_a_family_needs_all_ten_and_o_includes_n():
    o_family = ["o", "ko", "so", "to", "no", "ho", "mo", "yo", "ro", "n"]
    hands = [GOJUON_A[:9], ["wa", *o_family[:9]], ["n"]]
    state = stacked(hands, variant="gojuon", first=1)
    assert {"type": "lay"} not in ENG.legal_actions(state, 1)  # O lacks N
    state, _ = ENG.apply(state, 1, ask(2, "n"))
    after, events = ENG.apply(state, 1, {"type": "lay"})
    assert events_of(events, "family_laid")[0]["cards"] == o_family
    assert after.hands[1] == ("wa",) and after.hands[0] == tuple(GOJUON_A[:9])


def test_themed_families_group_cards_by_theme():
    # mystery = ke tsu hi ya n; tradition = a ko te fu yu
    state = stacked([["ke", "tsu", "hi", "ya"], ["n", "ko"]], variant="themed")
    refused(state, 0, ask(1, "ko"), "TRADITION family")
    after, _ = ENG.apply(state, 0, ask(1, "n"))
    after, events = ENG.apply(after, 0, {"type": "lay"})
    assert events_of(events, "family_laid")[0]["cards"] == ["ke", "tsu", "hi", "ya", "n"]


def test_kana_ya_family_is_ya_yu_yo_wa_n():
    state = stacked([["ya", "yu", "yo", "wa"], ["n"]], variant="kana")
    after, _ = ENG.apply(state, 0, ask(1, "n"))
    assert ENG.legal_actions(after, 0) == [{"type": "lay"}]


# --- starting, empty hands, the end -----------------------------------------------------------


def test_the_youngest_seat_chosen_at_the_table_starts():
    state = ENG.new_game(players=4, seed=3, options={"start": "youngest", "first": 2})
    assert ENG.to_act(state) == [2]
    with pytest.raises(ValueError, match="first"):
        ENG.new_game(players=2, seed=3, options={"first": 3})


def test_a_random_start_is_seeded():
    firsts = {ENG.to_act(ENG.new_game(3, seed, {"start": "random"}))[0] for seed in range(30)}
    assert firsts == {0, 1, 2}
    again = [ENG.to_act(ENG.new_game(3, seed, {"start": "random"})) for seed in range(10)]
    assert again == [ENG.to_act(ENG.new_game(3, seed, {"start": "random"})) for seed in range(10)]


def test_an_empty_hand_draws_when_its_turn_comes():
    state = stacked([["ka"], [], ["na"]], ["mu", "me"], variant="kana")
    after, events = ENG.apply(state, 0, ask(2, "ki"))  # miss: draws mu, turn to seat 1
    assert ENG.to_act(after) == [1] and after.hands[1] == ("me",)
    assert {"type": "draw", "seat": 1, "reason": "empty_hand", "except": 1} in events
    assert ENG.legal_actions(after, 1)  # and then plays


def test_an_empty_hand_with_an_empty_pile_is_skipped():
    hands = [["ka", "sa"], [], rest_of_deck(["ka", "sa"])]
    state = stacked(hands, pile=[], variant="kana")
    after, events = ENG.apply(state, 0, ask(2, "ki"))
    assert after.hands[0] == ("ka", "ki", "sa") and ENG.to_act(after) == [0]
    after, events = ENG.apply(after, 0, ask(1, "ku"))  # seat 1 has nothing: pass
    assert {"type": "skip", "seat": 1, "reason": "empty_hand"} in events
    assert ENG.to_act(after) == [2]


def test_french_end_when_every_family_is_laid():
    rest = rest_of_deck(["a", "i", "u", "e", "o"])
    state = stacked([["a", "i", "u", "e", *rest], ["o"]], pile=[], variant="kana")
    state, _ = ENG.apply(state, 0, ask(1, "o"))
    assert ENG.legal_actions(state, 0) == [{"type": "lay"}]
    after, events = ENG.apply(state, 0, {"type": "lay"})
    assert ENG.is_over(after) and ENG.to_act(after) == []
    assert events[-1] == {
        "type": "game_over", "reason": "all_families", "scores": [9, 0], "ranks": [1, 2]
    }  # fmt: skip
    assert ENG.outcome(after)["ranks"] == [1, 2]
    refused(after, 1, ask(0, "a"), "game is over")


def test_english_end_when_the_last_card_is_drawn():
    hands = [["ka", "ki", "ku", "ke", "sa"], ["ta"], rest_of_deck(KA, ["sa", "ta", "ko"])]
    state = stacked(hands, pile=["ko"], variant="kana", end="pile_empty")
    after, events = ENG.apply(state, 0, ask(1, "shi"))  # miss, draws ko: the pile is empty
    assert ENG.is_over(after)
    assert events_of(events, "game_over")[0]["reason"] == "pile_empty"
    assert after.laid[0] == ("ka",)  # completed by the last draw, laid at the end
    scores = ENG.outcome(after)["scores"]
    assert scores[0] == 1 and scores[2] == 6  # seat 2 held six whole families


def test_english_end_on_a_good_pick_of_the_last_card():
    hands = [["ka", "sa"], ["ta"], rest_of_deck(["ka", "sa", "ta", "ki"])]
    state = stacked(hands, pile=["ki"], variant="kana", end="pile_empty")
    after, events = ENG.apply(state, 0, ask(1, "ki"))
    assert events_of(events, "good_pick") and ENG.is_over(after)


def test_ties_share_the_rank():
    rest = rest_of_deck(KA, ["sa", "shi", "su", "se", "so"])
    state = stacked([KA, ["sa", "shi", "su", "se", "so"], rest], pile=[], variant="kana")
    state, _ = ENG.apply(state, 0, {"type": "lay"})
    state, _ = ENG.apply(state, 1, {"type": "lay"})
    while not ENG.is_over(state):
        state, _ = ENG.apply(state, 2, {"type": "lay"})
    assert ENG.outcome(state)["scores"] == [1, 1, 7]
    assert ENG.outcome(state)["ranks"] == [2, 2, 1]


# --- options, setup, views --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "match"),
    [
        (4, {"colour": "red"}, "unknown option"),
        (4, {"variant": "animals"}, "variant"),
        (4, {"hand_size": 0}, "hand_size"),
        (4, {"hand_size": "5"}, "integer"),
        (6, {"hand_size": 8}, "no pile"),
        (5, {"hand_size": 9, "end": "pile_empty"}, "no pile"),
        (1, {}, "2 to 6 players"),
        (7, {}, "2 to 6 players"),
        (2, {"setup": {"hands": [["ka"], ["ki"]], "pile": []}}, "exactly the deck"),
        (2, {"setup": {"hands": [["ka"]], "pile": []}}, "2 lists"),
        (
            2,
            {"end": "pile_empty", "setup": {"hands": [DECK[:20], DECK[20:]], "pile": []}},
            "must leave a pile",
        ),
        (2, {"setup": {"hands": [[], []], "pile": list(DECK), "first": 2}}, "first"),
        (2, {"setup": {"hands": [[], []], "pile": list(DECK[1:]), "table": ["a"]}}, "table"),
    ],
)
def test_it_rejects_bad_options(players, options, match):
    with pytest.raises(ValueError, match=match):
        ENG.new_game(players=players, seed=1, options=options)


def test_a_full_deal_without_pile_is_allowed_with_the_french_end():
    state = ENG.new_game(players=5, seed=1, options={"hand_size": 9})
    assert [len(hand) for hand in state.hands] == [9] * 5 and state.pile == ()


def test_the_view_shows_own_hand_sizes_and_glyphs_only():
    state = stacked([["ka", "ki"], ["ta"], ["na"]], ["mu"], variant="kana", script="katakana")
    view = ENG.view(state, 0)
    assert view["hand"] == ["ka", "ki"] and view["hand_sizes"] == [2, 1, 1]
    assert view["pile_size"] == len(DECK) - 4 and "pile" not in view
    assert view["kana"]["ki"] == {"glyph": "キ", "script": "katakana"}
    assert "ta" not in view["kana"] and "na" not in view["kana"]
    assert ENG.view(state, None)["hand"] is None


def test_mixed_script_is_drawn_per_card_at_the_deal_and_seeded():
    games = [ENG.new_game(4, seed, {"script": "mixed"}) for seed in range(3)]
    assert all(set(g.scripts) == {"h", "k"} for g in games)
    assert games[0].scripts != games[1].scripts
    assert ENG.new_game(4, 0, {"script": "mixed"}).scripts == games[0].scripts
    hiragana = ENG.new_game(4, 0, {"script": "hiragana"})
    view = ENG.view(hiragana, 0)
    assert all(k["script"] == "hiragana" for k in view["kana"].values())


def test_kana_on_is_the_card_itself():
    assert ENG.kana_on("shi", {}) == ["shi"]
    with pytest.raises(ValueError):
        ENG.kana_on("si", {})
