"""The Koi-Koi engine object (contract of ARCHITECTURE §2) around ``rules.py`` (which holds
what may be played and the turn itself: ``rules.legal_actions``, ``rules.apply``).

Actions (JSON dicts):

- ``{"type": "play", "card": id}`` — play a hand card (no choice to make: 0, 1 or 3 cards
  of its month on the table); a card matching nothing only when no hand card matches (or
  with ``free_discard``: ``rules.may_discard``); ``{"type": "play", "card": id, "take": id}``
  when two cards of its month lie on the table, one action per card it may take;
- ``{"type": "take", "card": id}`` — the turned card matches two table cards: take that one;
  ``{"type": "take"}`` / ``{"type": "leave"}`` — with ``draw_capture="optional"``, capture the
  turned card's single (or three) match(es), or leave it on the table;
- ``{"type": "koikoi"}`` / ``{"type": "shobu"}`` — after forming or raising a yaku. When both
  hands are empty, only ``shobu`` is offered (koi-koi could only lose the round).

Events: ``oya_draw``, ``deal``, ``redeal``, ``dealt_yaku``, ``play``, ``draw``, ``take``,
``yaku``, ``koikoi``, ``shobu``, ``oya_privilege``, ``round_end``, ``game_over`` — all
public (every card they name is face up when they happen).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import chain
from typing import Any

from games.engines.base import (
    Bot,
    Engine,
    Option,
    competition_ranks,
    gettext_noop,
    latest_events,
    validate_setup,
)
from games.engines.koikoi import rules
from games.engines.koikoi.bots import make_bot
from games.engines.koikoi.cards import DECK, PLANT_KANA_IDS
from games.engines.koikoi.rules import (
    HAND_SIZE,
    KoikoiState,
    Round,
    choose_oya,
    masks_of,
    month_of_round,
    settings_for,
)

ENGINE_NAME = "koikoi"
LOG_WINDOW = 40


def _choice(name: str, default: str, label: str, values: dict[str, str], help: str = "") -> Option:
    return Option(
        name,
        "choice",
        default,
        label,
        help=help,
        choices=tuple(values),
        choice_labels=tuple(values.values()),
    )


OPTIONS: tuple[Option, ...] = (
    _choice(
        "rounds",
        "12",
        gettext_noop("Rounds"),
        {
            "12": gettext_noop("12 rounds (a year)"),
            "6": gettext_noop("6 rounds"),
            "3": gettext_noop("3 rounds"),
        },
    ),
    _choice(
        "bright_points",
        "10_5",
        gettext_noop("Five brights / three brights"),
        {
            "10_5": gettext_noop("10 and 5 points (Nintendo-style)"),
            "15_6": gettext_noop("15 and 6 points"),
        },
    ),
    Option(
        "sanko_rain_man",
        "bool",
        False,
        gettext_noop("The rain man counts in three brights"),
    ),
    _choice(
        "viewing",
        "5",
        gettext_noop("Flower and moon viewing"),
        {
            "5": gettext_noop("5 points each"),
            "3": gettext_noop("3 points each"),
            "off": gettext_noop("Not scored"),
        },
    ),
    _choice(
        "viewing_rule",
        "always",
        gettext_noop("When viewing yaku count"),
        {
            "always": gettext_noop("Always"),
            "with_other": gettext_noop("Only with another yaku"),
            "rain": gettext_noop("Not with the rain man or the lightning in the pile"),
        },
    ),
    _choice(
        "sake_cup",
        "animal",
        gettext_noop("The sake cup"),
        {
            "animal": gettext_noop("An animal only"),
            "both": gettext_noop("An animal and also a chaff"),
        },
    ),
    _choice(
        "stacking",
        "modern",
        gettext_noop("Yaku of a kind"),
        {
            "modern": gettext_noop("Best of each group, with extra points per card"),
            "older": gettext_noop("Older rules: boar-deer-butterflies and ribbon yaku stack"),
        },
    ),
    Option("double_at_seven", "bool", True, gettext_noop("Double a score of 7 or more")),
    _choice(
        "koikoi_bonus",
        "opponent",
        gettext_noop("Koi-koi doubling"),
        {
            "opponent": gettext_noop("x2 if the opponent called koi-koi"),
            "self": gettext_noop("x2 if the scorer called koi-koi"),
            "anyone": gettext_noop("x2 if anyone called koi-koi"),
            "per_call": gettext_noop("x(calls + 1)"),
        },
    ),
    _choice(
        "koikoi_on",
        "new_or_raised",
        gettext_noop("Koi-koi or shōbu is asked"),
        {
            "new_or_raised": gettext_noop("After a new or raised yaku"),
            "new_only": gettext_noop("After a new yaku only"),
        },
    ),
    _choice(
        "draw_scoring",
        "none",
        gettext_noop("When the hands run out"),
        {
            "none": gettext_noop("Nobody scores"),
            "oya_1": gettext_noop("The dealer scores 1"),
            "oya_6": gettext_noop("The dealer scores 6"),
        },
    ),
    Option("tsukifuda", "bool", False, gettext_noop("Cards of the month (4 points)")),
    _choice(
        "dealt_hands",
        "off",
        gettext_noop("Dealt hands (four of a month, four pairs)"),
        {
            "off": gettext_noop("Not scored"),
            "score": gettext_noop("Win the round with 6 points"),
            "redeal": gettext_noop("Deal again"),
        },
    ),
    Option(
        "free_discard",
        "bool",
        False,
        gettext_noop("Any hand card may be played, even when another matches the table"),
    ),
    _choice(
        "draw_capture",
        "always",
        gettext_noop("A turned card that matches"),
        {
            "always": gettext_noop("Is always captured"),
            "optional": gettext_noop("May be left on the table"),
        },
    ),
)


class KoiKoi(Engine):
    name = ENGINE_NAME
    title = gettext_noop("Koi-Koi (hanafuda)")
    blurb = gettext_noop(
        "Two players capture flower cards by month to form yaku; "
        "learn the kana of the twelve plants."
    )
    DESCRIBED_OPTIONS = ("rounds",)
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    OPTIONS = OPTIONS
    # the table's kana script option: the plant names are always in hiragana (games/forms.py
    # leaves the field out; the table keeps its default, "hiragana")
    UNUSED_TABLE_OPTIONS = ("script",)

    # -- setting up --

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> KoikoiState:
        players, checked, setup = self.check_new_game(players, seed, options)
        frozen_options = tuple(sorted(checked.items()))
        ruleset = settings_for(frozen_options)
        events: list[dict] = []
        stacked = None
        if setup is not None:
            found = validate_setup(setup, deck=DECK.ids, players=players)
            sizes = [len(found.hands[0]), len(found.hands[1]), len(found.table)]
            if sizes != [HAND_SIZE] * 3:
                raise ValueError("setup must deal 8 cards to each hand and 8 to the table")
            oya = found.first
            stacked = (found.hands, found.table, found.pile)
        else:
            oya, draws = choose_oya(seed)
            events.append({"type": "oya_draw", "cards": draws[-1], "redraws": len(draws) - 1})
        state = KoikoiState(
            seed=seed,
            options=frozen_options,
            round=1,
            oya=oya,
            attempt=0,
            hands=((), ()),
            table=(),
            pile=tuple(DECK.ids),
            captured=((), ()),
            phase="play",
            turn=oya,
            drawn=None,
            calls=(0, 0),
            yaku=((), ()),
            scores=(0, 0),
            results=(),
            log=(),
            rules=ruleset,
        )
        scratch = Round(state, ruleset)
        scratch.events = events
        scratch.deal(stacked)
        return scratch.frozen()

    # -- playing --

    def to_act(self, state: KoikoiState) -> list[int]:
        return [] if state.phase == "over" else [state.turn]

    # what may be played, and the turn: the rulebook's own functions (``rules.py``), called
    # without a wrapper (they are the hot path)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)

    # -- reading --

    def view(self, state: KoikoiState, seat: int | None) -> dict:
        if seat is not None and (isinstance(seat, bool) or seat not in (0, 1)):
            raise ValueError(f"no seat {seat!r} at this table")
        hand = list(state.hands[seat]) if seat is not None else None
        shown = list(chain(hand or (), state.table, *state.captured))
        if state.drawn:
            shown.append(state.drawn)
        return {
            "engine": ENGINE_NAME,
            "options": dict(state.options),
            "players": 2,
            "seat": seat,
            "round": state.round,
            "rounds": int(dict(state.options)["rounds"]),
            "month": month_of_round(state.round),
            "oya": state.oya,
            "phase": state.phase,
            "turn": None if state.phase == "over" else state.turn,
            "to_act": self.to_act(state),
            "hand": hand,
            "hand_sizes": [len(h) for h in state.hands],
            "pile_size": len(state.pile),
            "table": list(state.table),
            "drawn": state.drawn,
            "captured": [list(c) for c in state.captured],
            # this seat's own capture pile again: the learning hook prompts on cards won
            "taken": list(state.captured[seat]) if seat is not None else None,
            "yaku": [[list(y) for y in yaku] for yaku in state.yaku],
            "calls": list(state.calls),
            "scores": list(state.scores),
            "results": [
                {"round": r, "winner": None if w < 0 else w, "points": p, "reason": why}
                for r, w, p, why in state.results
            ],
            "kana": {card: self._kana(card) for card in sorted(shown, key=DECK.order.get)},
            "log": latest_events(reversed(state.log), seat, LOG_WINDOW),
        }

    @staticmethod
    def _kana(card: str) -> dict[str, str]:
        info = DECK.cards[card]
        return {"script": "hiragana", "kana": info.plant_kana, "romaji": info.plant_romaji}

    def is_over(self, state: KoikoiState) -> bool:
        return state.phase == "over"

    def outcome(self, state: KoikoiState) -> dict:
        scores = list(state.scores)
        return {
            "scores": scores,
            "ranks": competition_ranks(scores),
            "rounds": [list(result) for result in state.results],
        }

    def to_json(self, state: KoikoiState) -> dict:
        return {
            "engine": ENGINE_NAME,
            "seed": state.seed,
            "options": dict(state.options),
            "round": state.round,
            "oya": state.oya,
            "attempt": state.attempt,
            "hands": [list(h) for h in state.hands],
            "table": list(state.table),
            "pile": list(state.pile),
            "captured": [list(c) for c in state.captured],
            "phase": state.phase,
            "turn": state.turn,
            "drawn": state.drawn,
            "calls": list(state.calls),
            "yaku": [[list(y) for y in yaku] for yaku in state.yaku],
            "scores": list(state.scores),
            "results": [list(r) for r in state.results],
            "log": [[dict(event) for event in events] for events in state.log],
        }

    def from_json(self, data: Mapping[str, Any]) -> KoikoiState:
        captured = (tuple(data["captured"][0]), tuple(data["captured"][1]))
        table = tuple(data["table"])
        return KoikoiState(
            seed=data["seed"],
            options=tuple(sorted(dict(data["options"]).items())),
            round=data["round"],
            oya=data["oya"],
            attempt=data["attempt"],
            hands=(tuple(data["hands"][0]), tuple(data["hands"][1])),
            table=table,
            pile=tuple(data["pile"]),
            captured=captured,
            phase=data["phase"],
            turn=data["turn"],
            drawn=data["drawn"],
            calls=(data["calls"][0], data["calls"][1]),
            yaku=tuple(tuple((y[0], y[1]) for y in yaku) for yaku in data["yaku"]),  # type: ignore[arg-type]
            scores=(data["scores"][0], data["scores"][1]),
            results=tuple((r[0], r[1], r[2], r[3]) for r in data["results"]),
            log=tuple(tuple(dict(event) for event in events) for events in data["log"]),
            masks=masks_of(captured, table),
            rules=settings_for(tuple(sorted(dict(data["options"]).items()))),
        )

    # -- players and learning hooks --

    def bot(self, level: str) -> Bot:
        return make_bot(self.check_bot_level(level))

    def kana_on(self, card_id: str, options: Mapping[str, Any] | None = None) -> list[str]:
        """The kana of the card's plant name (まつ -> ma, tsu), each once."""
        if card_id not in DECK.cards:
            raise ValueError(f"there is no hanafuda card {card_id!r}")
        return list(dict.fromkeys(PLANT_KANA_IDS[DECK.cards[card_id].plant_kana]))

    def cards_shown(self, view: Mapping[str, Any]) -> dict[str, str]:
        """Every face-up card of the view -> "hiragana" (plant names are written in hiragana)."""
        return {card: info["script"] for card, info in (view.get("kana") or {}).items()}

    def cards_held(self, view: Mapping[str, Any]) -> list[str]:
        """The hand and this seat's capture pile (``view["taken"]``): a card won may prompt
        for its plant name too."""
        return [*(view.get("hand") or ()), *(view.get("taken") or ())]

    def practice_presets(self) -> list[dict[str, Any]]:
        return [{"rounds": "3"}, {"rounds": "12"}]

    def practice(self, options: Mapping[str, Any] | None = None) -> frozenset[str]:
        """Every game shows the 12 plants: the kana of their names."""
        self.validate_options(options)
        return frozenset(chain.from_iterable(PLANT_KANA_IDS.values()))

    # -- conformance hooks --

    def deck(self, state: KoikoiState) -> list[str]:
        return list(DECK.ids)

    def cards_in_play(self, state: KoikoiState) -> list[str]:
        cards = [*state.hands[0], *state.hands[1], *state.table, *state.pile]
        cards += [*state.captured[0], *state.captured[1]]
        if state.drawn:
            cards.append(state.drawn)
        return cards

    def shuffle_hidden(
        self, state: KoikoiState, seat: int | None, rng: random.Random
    ) -> KoikoiState:
        """Permute the cards ``seat`` cannot see: the other hand(s) and the pile."""
        zones = [list(state.hands[0]), list(state.hands[1]), list(state.pile)]
        hidden = [z for z in range(3) if z != seat]
        cards = [card for z in hidden for card in zones[z]]
        rng.shuffle(cards)
        at = 0
        for z in hidden:
            size = len(zones[z])
            zones[z] = cards[at : at + size]
            at += size
        return state._replace(hands=(tuple(zones[0]), tuple(zones[1])), pile=tuple(zones[2]))


ENGINE = KoiKoi()
