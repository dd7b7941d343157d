"""Koi-Koi scenarios on stacked deals: captures, choices, koi-koi and shōbu, redeals,
exhaustive draws, the oya, the 12-round total, and the refusals."""

import random

import pytest
from koikoi_setup import ENG, KO_HAND, OYA_HAND, PILE_TOP, TABLE, events_of, play_out, stacked

from games.engines import IllegalAction
from games.engines.koikoi.cards import DECK


def hanami_game(**options):
    return stacked([OYA_HAND, KO_HAND], TABLE, PILE_TOP, first=0, rounds="3", **options)


def apply(state, seat, action):
    return ENG.apply(state, seat, action)


def test_a_turn_captures_by_month_then_turns_the_top_card():
    state = hanami_game()
    state, events = apply(state, 0, {"type": "play", "card": "kiku-sakazuki"})
    assert events_of(events, "play")[0]["captured"] == ["kiku-sakazuki", "kiku-chaff-1"]
    assert events_of(events, "draw")[0]["captured"] == ["sakura-chaff-1", "sakura-maku"]
    assert set(state.captured[0]) == {
        "kiku-sakazuki", "kiku-chaff-1", "sakura-chaff-1", "sakura-maku",
    }  # fmt: skip
    assert events_of(events, "yaku")[0]["yaku"] == [["hanami_zake", 5]]
    assert ENG.to_act(state) == [0]
    assert ENG.legal_actions(state, 0) == [{"type": "koikoi"}, {"type": "shobu"}]


def test_shobu_scores_only_the_caller_and_the_winner_deals_next():
    state, _ = apply(hanami_game(), 0, {"type": "play", "card": "kiku-sakazuki"})
    state, events = apply(state, 0, {"type": "shobu"})
    end = events_of(events, "round_end")[0]
    assert end == {
        "type": "round_end", "round": 1, "winner": 0, "points": 5, "reason": "shobu",
        "scores": [5, 0],
    }  # fmt: skip
    assert state.scores == (5, 0) and state.round == 2
    assert events_of(events, "deal")[0]["oya"] == 0 and ENG.to_act(state) == [0]


def test_koikoi_then_the_opponent_scores_double():
    state, _ = apply(hanami_game(), 0, {"type": "play", "card": "kiku-sakazuki"})
    state, events = apply(state, 0, {"type": "koikoi"})
    assert events_of(events, "koikoi") == [{"type": "koikoi", "seat": 0, "calls": 1}]
    assert ENG.to_act(state) == [1]
    state, _ = apply(state, 1, {"type": "play", "card": "kiri-hoo"})  # + crane from the pile
    assert state.phase == "play" and ENG.to_act(state) == [0]
    state, events = apply(state, 0, {"type": "play", "card": "ume-chaff-1"})  # no match
    assert "ume-chaff-1" in state.table and "botan-chaff-1" in state.table
    state, events = apply(state, 1, {"type": "play", "card": "susuki-tsuki"})
    assert events_of(events, "yaku")[0]["yaku"] == [["sanko", 5]]
    state, events = apply(state, 1, {"type": "shobu"})
    shobu = events_of(events, "shobu")[0]
    assert shobu["base"] == 5 and shobu["points"] == 10  # x2: the oya had called koi-koi
    assert state.scores == (0, 10)
    assert events_of(events, "deal")[0]["oya"] == 1  # the winner deals the next round


def test_four_of_a_month_are_all_captured_by_the_fourth():
    hand = ["matsu-tsuru", *OYA_HAND[1:]]
    table = ["matsu-akatan", "matsu-chaff-1", "matsu-chaff-2", *TABLE[1:3], *TABLE[5:]]
    state = stacked([hand, KO_HAND], table, ["botan-chaff-1"], first=0)
    assert ENG.legal_actions(state, 0)[0] == {"type": "play", "card": "matsu-tsuru"}
    state, events = apply(state, 0, {"type": "play", "card": "matsu-tsuru"})
    assert sorted(events_of(events, "play")[0]["captured"]) == sorted(
        ["matsu-tsuru", "matsu-akatan", "matsu-chaff-1", "matsu-chaff-2"]
    )
    assert not any(card.startswith("matsu") for card in state.table)


def test_the_player_chooses_between_two_matches():
    hand = ["ume-uguisu", "kiku-sakazuki", "yanagi-tsubame", "yanagi-tanzaku", "yanagi-kasu"]
    hand += ["kiri-chaff-2", "kiri-chaff-3", "susuki-kari"]
    table = ["ume-chaff-1", "ume-akatan", *TABLE[1:7]]
    state = stacked([hand, KO_HAND], table, ["botan-chaff-1"], first=0)
    legal = ENG.legal_actions(state, 0)
    assert {"type": "play", "card": "ume-uguisu", "take": "ume-chaff-1"} in legal
    assert {"type": "play", "card": "ume-uguisu", "take": "ume-akatan"} in legal
    assert {"type": "play", "card": "ume-uguisu"} not in legal
    with pytest.raises(IllegalAction, match="take one"):
        apply(state, 0, {"type": "play", "card": "ume-uguisu"})
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "play", "card": "ume-uguisu", "take": "kiri-chaff-1"})
    state, events = apply(state, 0, {"type": "play", "card": "ume-uguisu", "take": "ume-akatan"})
    assert events_of(events, "play")[0]["captured"] == ["ume-uguisu", "ume-akatan"]
    assert "ume-chaff-1" in state.table


def test_a_turned_card_with_two_matches_waits_for_a_choice():
    table = ["sakura-maku", "sakura-akatan", *TABLE[2:]]
    state = stacked([OYA_HAND, KO_HAND], table, ["sakura-chaff-1"], first=0)
    state, events = apply(state, 0, {"type": "play", "card": "ume-chaff-1"})
    assert state.phase == "draw" and state.drawn == "sakura-chaff-1"
    assert ENG.legal_actions(state, 0) == [
        {"type": "take", "card": "sakura-maku"},
        {"type": "take", "card": "sakura-akatan"},
    ]
    with pytest.raises(IllegalAction):
        apply(state, 0, {"type": "play", "card": "ume-chaff-2"})
    state, events = apply(state, 0, {"type": "take", "card": "sakura-maku"})
    assert events_of(events, "take")[0]["captured"] == ["sakura-chaff-1", "sakura-maku"]
    assert "sakura-akatan" in state.table


def test_drawn_capture_may_be_optional():
    state = hanami_game(draw_capture="optional")
    state, _ = apply(state, 0, {"type": "play", "card": "kiku-sakazuki"})
    assert state.phase == "draw"
    assert ENG.legal_actions(state, 0) == [{"type": "take"}, {"type": "leave"}]
    state, events = apply(state, 0, {"type": "leave"})
    assert {"sakura-chaff-1", "sakura-maku"} <= set(state.table)
    assert state.phase == "play" and ENG.to_act(state) == [1]  # no yaku formed


def test_four_cards_of_a_month_on_the_table_means_a_redeal():
    table = ["matsu-tsuru", "matsu-akatan", "matsu-chaff-1", "matsu-chaff-2", *TABLE[1:3]]
    table += ["fuji-chaff-1", "ayame-chaff-1"]
    hand = [c for c in OYA_HAND if not c.startswith("matsu")]
    state = stacked([hand, KO_HAND], table, first=1)
    events = [e for group in state.log for e in group]
    assert events_of(events, "redeal")[0]["reason"] == "table"
    assert sorted(state.table) != sorted(table)
    assert len(state.table) == 8 and all(len(h) == 8 for h in state.hands)
    assert state.oya == 1 and ENG.to_act(state) == [1]


def test_dealt_hand_wins_six_points_when_the_setting_is_on():
    teshi = ["matsu-tsuru", "matsu-akatan", "matsu-chaff-1", "matsu-chaff-2", *KO_HAND[2:6]]
    table = TABLE[:3] + TABLE[4:] + ["kiri-hoo"]
    hand = ["kiku-sakazuki", "ume-chaff-1", "yanagi-tsubame", "yanagi-tanzaku"]
    hand += ["ume-chaff-2", "ume-uguisu", "fuji-chaff-2", "ayame-chaff-2"]
    state = stacked([hand, teshi], table, first=0, dealt_hands="score", rounds="3")
    assert state.scores == (0, 6) and state.round == 2 and state.oya == 1
    events = [e for group in state.log for e in group]
    assert events_of(events, "dealt_yaku")[0]["yaku"] == [["teshi", 6]]
    # off by default: the same deal is played normally
    state = stacked([hand, teshi], table, first=0, rounds="3")
    assert state.round == 1 and state.scores == (0, 0)
    # redeal
    state = stacked([hand, teshi], table, first=0, dealt_hands="redeal", rounds="3")
    events = [e for group in state.log for e in group]
    assert events_of(events, "redeal")[0]["reason"] == "hand" and state.round == 1


def _first_exhausted_round(options):
    """A seeded game whose first round runs out without a shōbu (the first legal action is
    played, koi-koi is always called)."""

    def policy(state, legal):
        return {"type": "koikoi"} if {"type": "koikoi"} in legal else legal[0]

    for seed in range(200):
        state = ENG.new_game(2, seed, {"rounds": "3", **options})
        oya = state.oya
        state, events = play_out(state, policy, stop=lambda s, ev: bool(events_of(ev, "round_end")))
        end = events_of(events, "round_end")[0]
        if end["reason"] == "exhausted":
            return oya, state, events
    raise AssertionError("no exhausted round in 200 seeds")


def test_a_round_without_shobu_scores_nothing_and_the_oya_stays():
    oya, state, events = _first_exhausted_round({})
    assert events_of(events, "round_end")[0]["winner"] is None
    assert state.scores == (0, 0)
    assert events_of(events, "deal")[-1]["oya"] == oya and state.oya == oya


def test_dealers_privilege_on_an_exhausted_round():
    oya, state, _ = _first_exhausted_round({"draw_scoring": "oya_6"})
    assert state.scores[oya] == 6 and state.scores[1 - oya] == 0 and state.oya == oya


def test_the_first_oya_is_the_earlier_month_drawn():
    for seed in range(20):
        state = ENG.new_game(2, seed, {})
        draw = state.log[0][0]
        assert draw["type"] == "oya_draw"
        months = [DECK.month_of[c] for c in draw["cards"]]
        assert months[0] != months[1]
        assert state.oya == (0 if months[0] < months[1] else 1) == state.turn


def test_twelve_rounds_the_total_decides_and_the_winner_deals():
    state = ENG.new_game(2, 5, {})
    bots = [ENG.bot("normal"), ENG.bot("hard")]
    rng = random.Random(5)
    deals, ends = [], []
    while not ENG.is_over(state):
        seat = ENG.to_act(state)[0]
        action = bots[seat].choose(ENG.view(state, seat), ENG.legal_actions(state, seat), rng)
        state, events = ENG.apply(state, seat, action)
        deals += events_of(events, "deal")
        ends += events_of(events, "round_end")
    assert len(state.results) == 12 == len(ends) and len(deals) == 11
    totals = [0, 0]
    for result in state.results:
        if result[1] >= 0:
            totals[result[1]] += result[2]
    assert list(state.scores) == totals
    for end, deal in zip(ends, deals, strict=False):
        if end["winner"] is not None:
            assert deal["oya"] == end["winner"]
    outcome = ENG.outcome(state)
    assert outcome["scores"] == totals
    assert outcome["ranks"] == ([1, 1] if totals[0] == totals[1] else
                                [1, 2] if totals[0] > totals[1] else [2, 1])  # fmt: skip
    assert ENG.legal_actions(state, 0) == [] and ENG.to_act(state) == []
    with pytest.raises(IllegalAction, match="over"):
        ENG.apply(state, 0, {"type": "shobu"})


@pytest.mark.parametrize("rounds", ["3", "6"])
def test_shorter_games(rounds):
    state, _ = play_out(ENG.new_game(2, 1, {"rounds": rounds}))
    assert len(state.results) == int(rounds)


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"type": "play", "card": "kiri-hoo"}, "not your turn"),
        (0, {"type": "play", "card": "kiri-hoo"}, "not in your hand"),
        (0, {"type": "koikoi"}, "Play a card"),
        (0, {"type": "play", "card": "ume-chaff-1", "take": "x"}, "no choice"),
        (0, "play", "object"),
        (0, {"type": "play", "card": ["kiku-sakazuki"]}, "not in your hand"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(seat, action, message):
    state = hanami_game()
    before = ENG.to_json(state)
    with pytest.raises(IllegalAction, match=message):
        ENG.apply(state, seat, action)
    assert ENG.to_json(state) == before


def test_setup_must_be_a_full_deal():
    with pytest.raises(ValueError, match="8 cards"):
        stacked([OYA_HAND[:7], KO_HAND], TABLE)
    with pytest.raises(ValueError):
        ENG.new_game(2, 0, {"rounds": "5"})
    with pytest.raises(ValueError, match="2 to 2"):
        ENG.new_game(3, 0, {})


def test_views_and_learning_hooks():
    state = hanami_game()
    view = ENG.view(state, 0)
    assert view["hand"] == OYA_HAND and view["hand_sizes"] == [8, 8]
    assert view["table"] == TABLE and view["pile_size"] == 24
    assert set(ENG.cards_shown(view)) == set(OYA_HAND) | set(TABLE)
    assert set(ENG.cards_shown(view).values()) == {"hiragana"}
    assert not set(KO_HAND) & set(ENG.cards_shown(view))
    assert ENG.view(state, None)["hand"] is None
    assert ENG.kana_on("matsu-tsuru") == ["ma", "tsu"]
    assert ENG.kana_on("susuki-tsuki") == ["su", "ki"]
    assert ENG.kana_on("botan-cho") == ["bo", "ta", "n"]
    assert ENG.kana_on("momiji-shika") == ["mo", "mi", "ji"]
    with pytest.raises(ValueError):
        ENG.kana_on("shi")
    practised = ENG.practice({})
    assert {"ma", "tsu", "u", "me", "sa", "ku", "ra", "fu", "ji", "a", "ya", "bo", "ta", "n"} <= (
        practised
    )
    assert practised == frozenset().union(*(ENG.kana_on(c) for c in ENG.deck(state)))
    for preset in ENG.practice_presets():
        ENG.new_game(2, 0, preset)


# --- issue 26: playing a hand card (koikoi.fr.txt), dealt patterns on the table ([FW]) ---


def test_a_hand_card_that_matches_must_be_played_when_one_does():
    # « Il pose n'importe quelle carte de sa main appartenant au même mois que l'une des
    # cartes déjà posées sur la table » — the oya holds the sake cup, the table a chrysanthemum
    state = hanami_game()
    assert ENG.legal_actions(state, 0) == [{"type": "play", "card": "kiku-sakazuki"}]
    before = ENG.to_json(state)
    for discard in ("ume-chaff-1", "yanagi-tsubame"):
        with pytest.raises(IllegalAction, match="matches a table card"):
            ENG.apply(state, 0, {"type": "play", "card": discard})
    assert ENG.to_json(state) == before


def test_any_card_may_be_discarded_when_nothing_matches():
    # « Si aucune carte de sa main ne correspond à celles de la table, le joueur pose une
    # carte quelconque » — no card of the oya's hand has its month on the table
    hand = [c for c in OYA_HAND if c != "kiku-sakazuki"] + ["fuji-chaff-2"]
    table = ["kiku-chaff-1", *TABLE[1:5], "hagi-chaff-1", "kiri-chaff-2", "kiri-chaff-3"]
    table[5] = "botan-chaff-1"
    state = stacked([hand, KO_HAND], table, first=0)
    legal = ENG.legal_actions(state, 0)
    assert legal == [{"type": "play", "card": card} for card in hand]
    state, events = apply(state, 0, {"type": "play", "card": "yanagi-kasu"})
    assert events_of(events, "play")[0]["captured"] == []
    assert "yanagi-kasu" in state.table


def test_the_free_discard_setting_allows_a_discard_while_a_card_matches():
    state = hanami_game(free_discard=True)
    assert ENG.legal_actions(state, 0) == [{"type": "play", "card": c} for c in OYA_HAND]
    state, events = apply(state, 0, {"type": "play", "card": "ume-chaff-1"})
    assert events_of(events, "play")[0]["captured"] == []
    assert "ume-chaff-1" in state.table and "kiku-chaff-1" in state.table


FOUR_PAIRS = [
    "matsu-chaff-1", "matsu-chaff-2", "ume-chaff-1", "ume-chaff-2", "sakura-chaff-1",
    "sakura-chaff-2", "fuji-chaff-1", "fuji-chaff-2",
]  # fmt: skip


def _four_pairs_deal(**options):
    oya = ["kiku-sakazuki", "yanagi-tsubame", "yanagi-tanzaku", "yanagi-kasu", "ume-uguisu"]
    oya += ["kiri-hoo", "hagi-chaff-1", "ayame-chaff-1"]
    ko = ["susuki-tsuki", "momiji-shika", "momiji-aotan", "momiji-chaff-2", "botan-cho"]
    ko += ["botan-aotan", "botan-chaff-2", "kiku-chaff-1"]
    return stacked([oya, ko], FOUR_PAIRS, first=0, rounds="3", **options)


@pytest.mark.parametrize("dealt_hands", ["score", "redeal"])
def test_four_pairs_dealt_to_the_table_are_dealt_again_when_dealt_hands_count(dealt_hands):
    state = _four_pairs_deal(dealt_hands=dealt_hands)
    events = [e for group in state.log for e in group]
    assert events_of(events, "redeal")[0] == {
        "type": "redeal", "round": 1, "reason": "table_pairs",
    }  # fmt: skip
    assert sorted(state.table) != sorted(FOUR_PAIRS) and state.round == 1
    assert len(state.table) == 8 and all(len(h) == 8 for h in state.hands)


def test_four_pairs_on_the_table_are_played_as_dealt_when_dealt_hands_are_off():
    state = _four_pairs_deal()
    assert list(state.table) == FOUR_PAIRS
    assert not events_of([e for group in state.log for e in group], "redeal")


def test_a_yaku_formed_by_the_hand_card_is_asked_when_the_turned_card_is_left():
    """docs/rules/koikoi.md: the koi-koi question comes once per turn, after the turned card —
    also when the turned card (``draw_capture="optional"``) is left on the table."""
    data = ENG.to_json(hanami_game(draw_capture="optional"))
    data["table"].remove("sakura-maku")
    data["pile"].remove("sakura-chaff-1")
    data["captured"][0] = ["sakura-chaff-1", "sakura-maku"]  # won earlier: no yaku yet
    state = ENG.from_json(data)
    assert state.pile[0] == "matsu-tsuru" and "matsu-chaff-1" in state.table
    state, events = apply(state, 0, {"type": "play", "card": "kiku-sakazuki"})
    assert events_of(events, "play")[0]["captured"] == ["kiku-sakazuki", "kiku-chaff-1"]
    assert state.phase == "draw" and not events_of(events, "yaku")
    state, events = apply(state, 0, {"type": "leave"})
    assert "matsu-tsuru" in state.table
    assert events_of(events, "yaku")[0]["yaku"] == [["hanami_zake", 5]]
    assert state.phase == "decide" and ENG.to_act(state) == [0]
    assert ENG.view(state, 0)["yaku"][0] == [["hanami_zake", 5]]
