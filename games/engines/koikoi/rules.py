"""Koi-Koi rules, step by step as the rulebook tells them (``shared/rules/koikoi.fr.txt``;
yaku and settings in ``shared/data/koikoi_yaku.md``; every interpretation in
``docs/rules/koikoi.md``).

- Before the first round each player draws a card: the earlier month is the oya (dealer);
  a tie is redrawn. Afterwards the winner of a round deals the next; after a round nobody won
  the oya stays.
- The oya deals 8 cards each and 8 face up on the table (the field), two by two: ko, table,
  oya. Four cards of one month on the table: the cards are dealt again. Dealt hands (手四,
  くっつき) per the ``dealt_hands`` setting: ignored (default), a 6-point win, or a redeal;
  when they count, four pairs on the table are dealt again too (a misdeal, [FW]).
- The oya plays first. A turn: play a hand card of a month on the table and capture (the
  player chooses when two match; with three, all four are taken); only when no hand card
  matches may any card be played, and it stays on the table (``free_discard``: any card,
  always — ``playable``). Then the top card of the pile is turned and matched the same way (with
  ``draw_capture="optional"`` a drawn card that matches may be left on the table).
- After a turn in which the player formed a new yaku or raised one (``koikoi_on``), they
  choose koi-koi (play on) or shōbu (end the round and score). Only the shōbu caller scores:
  ``yaku.final_score``. Both hands empty without shōbu: nobody scores (``draw_scoring``).
- ``rounds`` rounds (12, 6 or 3); the total decides, ties share the rank.

Everything here is pure: ``Round`` is the scratch one ``apply`` works on, turned back into a
frozen ``KoikoiState`` at the end. Randomness: each deal shuffles with
``shuffled(seed, f"{round}/{attempt}")``, a pure function of the stored seed (SHAKE-256
keys; no RNG object to carry).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engines.koikoi.cards import DECK
from games.engines.koikoi.index import deal_cards, has_four_of_a_month, mask_of, shuffled_ids
from games.engines.koikoi.yaku import (
    Judge,
    _row_points,
    _settings,
    final_score,
    judge_for,
    judge_mask,
)

HAND_SIZE = 8
MONTH_OF = DECK.month_of
BIT = DECK.bit
MONTH_MASK_OF = {card: DECK.month_mask[DECK.month_of[card]] for card in DECK.ids}


class KoikoiState(NamedTuple):
    """A game position: immutable plain data."""

    seed: int
    options: tuple[tuple[str, Any], ...]  # every validated option but ``setup``, by name
    round: int  # 1-based
    oya: int
    attempt: int  # deals of this round so far (redeals shuffle again)
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    table: tuple[str, ...]  # the field, face up
    pile: tuple[str, ...]  # pile[0] is turned next
    captured: tuple[tuple[str, ...], tuple[str, ...]]
    phase: str  # "play" | "draw" (a turned card waits for a choice) | "decide" | "over"
    turn: int  # the seat to act (the last to act once over)
    drawn: str | None  # the turned card waiting in phase "draw"
    calls: tuple[int, int]  # koi-koi calls this round, per seat
    yaku: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]  # at each turn end
    scores: tuple[int, int]
    results: tuple[tuple[int, int, int, str], ...]  # (round, winner or -1, points, reason)
    log: tuple[tuple[dict, ...], ...]  # the events of each apply (views filter them)
    # derived from captured and table (not serialised): bit masks (captured 0, captured 1, table)
    masks: tuple[int, int, int] = (0, 0, 0)
    # derived from options (not serialised): the ruleset, looked up once per game
    rules: Any = None


class Settings(NamedTuple):
    rounds: int
    draw_capture: str
    koikoi_on: str
    dealt_hands: str
    draw_scoring: str
    free_discard: bool
    judge: Judge
    options_map: dict[str, Any]


_SETTINGS: dict[tuple, Settings] = {}


def settings_for(options: tuple[tuple[str, Any], ...]) -> Settings:
    """The ruleset of a game (built once per distinct options, then looked up)."""
    found = _SETTINGS.get(options)
    if found is None:
        by_name = dict(options)
        found = Settings(
            rounds=int(by_name["rounds"]),
            draw_capture=by_name["draw_capture"],
            koikoi_on=by_name["koikoi_on"],
            dealt_hands=by_name["dealt_hands"],
            draw_scoring=by_name["draw_scoring"],
            # tables created before the option existed play the printed rule
            free_discard=bool(by_name.get("free_discard", False)),
            judge=judge_for(_settings(by_name)),
            options_map=by_name,
        )
        if len(_SETTINGS) < 512:
            _SETTINGS[options] = found
    return found


def month_of_round(round_number: int) -> int:
    return (round_number - 1) % 12 + 1


def matches(
    table: tuple[str, ...] | list[str], card: str, table_mask: int | None = None
) -> list[str]:
    """The table cards of ``card``'s month, in table order."""
    if table_mask is not None:
        same = table_mask & MONTH_MASK_OF[card]
        if not same:
            return []
        return [other for other in table if BIT[other] & same]
    month = MONTH_OF[card]
    return [other for other in table if MONTH_OF[other] == month]


def playable(hand: tuple[str, ...], table_mask: int, free_discard: bool) -> tuple[str, ...]:
    """The hand cards a player may play: « n'importe quelle carte de sa main appartenant au
    même mois que l'une des cartes déjà posées sur la table » — and « si aucune carte de sa
    main ne correspond […], une carte quelconque ». ``free_discard``: any card, always."""
    if free_discard:
        return hand
    matching = tuple([card for card in hand if table_mask & MONTH_MASK_OF[card]])
    return matching or hand


def masks_of(captured: tuple, table: tuple) -> tuple[int, int, int]:
    return DECK.mask(captured[0]), DECK.mask(captured[1]), DECK.mask(table)


def shuffled(seed: int, label: str) -> list[str]:
    """The 48 cards in an order that is a pure function of ``(seed, label)``.

    Each card gets a 32-bit key from SHAKE-256 of ``"{seed}/{label}"`` and the deck is sorted
    by key (ties: deck order): a uniform shuffle, the same on every machine and Python version,
    and five times cheaper than seeding a ``random.Random`` per deal (see docs/bench.md).
    Computed by ``index.shuffled_ids``.
    """
    return list(shuffled_ids(seed, label))


def choose_oya(seed: int) -> tuple[int, list[list[str]]]:
    """Each player draws a card; the earlier month deals; ties draw again."""
    draws = []
    while True:
        first, second = shuffled(seed, f"oya/{len(draws)}")[:2]
        draws.append([first, second])
        if MONTH_OF[first] != MONTH_OF[second]:
            return (0 if MONTH_OF[first] < MONTH_OF[second] else 1), draws


def shuffled_deal(seed: int, round_number: int, attempt: int, oya: int) -> tuple:
    """(hands, table, pile) dealt two by two: ko, table, oya, four times (the shuffled deck's
    cards 0-1 to the ko, 2-3 to the table, 4-5 to the oya, and again from 6; the pile is
    what is left). Computed by ``index.deal_cards``."""
    return deal_cards(seed, round_number, attempt, oya)


def four_of_a_month(cards: tuple[str, ...]) -> bool:
    counts = [0] * 13
    for card in cards:
        counts[MONTH_OF[card]] += 1
    return 4 in counts


class Round:
    """The mutable scratch of one ``apply`` (or of a deal)."""

    __slots__ = (
        "state", "rules", "hands", "table", "pile", "captured", "phase", "turn", "drawn",
        "calls", "yaku", "scores", "results", "round", "oya", "attempt", "events", "taken",
        "masks",
    )  # fmt: skip

    def __init__(self, state: KoikoiState, rules: Settings) -> None:
        self.state = state
        self.rules = rules
        self.hands = list(state.hands)
        self.table = state.table
        self.pile = state.pile
        self.captured = list(state.captured)
        self.phase = state.phase
        self.turn = state.turn
        self.drawn = state.drawn
        self.calls = state.calls
        self.yaku = state.yaku
        self.scores = state.scores
        self.results = state.results
        self.round = state.round
        self.oya = state.oya
        self.attempt = state.attempt
        self.masks = list(state.masks)
        self.events: list[dict] = []
        self.taken = False  # the seat captured something this turn

    # -- one turn --

    def play(self, seat: int, card: str, take: str | None) -> None:
        """Step 1: a hand card goes to the table, capturing what it matches."""
        self.hands[seat] = tuple([c for c in self.hands[seat] if c != card])
        same = matches(self.table, card, self.masks[2])
        captured = self.capture(seat, card, same, take)
        self.events.append({"type": "play", "seat": seat, "card": card, "captured": captured})
        self.turn_up(seat)

    def capture(self, seat: int, card: str, same: list[str], take: str | None) -> list[str]:
        masks = self.masks
        if not same:
            self.table = (*self.table, card)
            masks[2] |= BIT[card]
            return []
        chosen = [take] if len(same) == 2 else same  # 1: that one; 3: all of them
        self.table = tuple([c for c in self.table if c not in chosen])
        self.captured[seat] = (*self.captured[seat], card, *chosen)
        gained = BIT[card]
        for c in chosen:
            gained |= BIT[c]
        masks[2] &= ~gained
        masks[seat] |= gained
        self.taken = True
        return [card, *chosen]

    def turn_up(self, seat: int) -> None:
        """Step 2: the top card of the pile is turned and matched."""
        card, self.pile = self.pile[0], self.pile[1:]
        same = matches(self.table, card, self.masks[2])
        if len(same) == 2 or (same and self.rules.draw_capture == "optional"):
            self.drawn = card
            self.phase = "draw"
            self.events.append({"type": "draw", "seat": seat, "card": card, "captured": None})
            return
        captured = self.capture(seat, card, same, None)
        self.events.append({"type": "draw", "seat": seat, "card": card, "captured": captured})
        self.end_turn(seat)

    def take_drawn(self, seat: int, take: str | None, leave: bool = False) -> None:
        """The choice for a turned card: capture (``take``: which of two matches), or leave it."""
        card, self.drawn = self.drawn, None
        assert card is not None
        if leave:
            self.table = (*self.table, card)
            self.masks[2] |= BIT[card]
            captured: list[str] = []
        else:
            captured = self.capture(seat, card, matches(self.table, card, self.masks[2]), take)
        self.events.append({"type": "take", "seat": seat, "card": card, "captured": captured})
        self.end_turn(seat)

    def end_turn(self, seat: int) -> None:
        self.phase = "play"
        if self.taken:
            before = dict(self.yaku[seat])
            now = judge_mask(self.rules.judge, self.masks[seat], month_of_round(self.round))
            yaku = list(self.yaku)
            yaku[seat] = tuple(now)
            self.yaku = (yaku[0], yaku[1])
            improved = any(
                points > before.get(yaku_id, 0)
                if self.rules.koikoi_on == "new_or_raised"
                else yaku_id not in before
                for yaku_id, points in now
            )
            if improved:
                self.events.append({"type": "yaku", "seat": seat, "yaku": [list(y) for y in now]})
                self.phase = "decide"
                self.turn = seat
                return
        self.next_turn(seat)

    def next_turn(self, seat: int) -> None:
        if not self.hands[0] and not self.hands[1]:
            self.end_round(-1, 0, "exhausted")
        else:
            self.turn = 1 - seat

    def koikoi(self, seat: int) -> None:
        calls = list(self.calls)
        calls[seat] += 1
        self.calls = (calls[0], calls[1])
        self.events.append({"type": "koikoi", "seat": seat, "calls": calls[seat]})
        self.phase = "play"
        self.next_turn(seat)

    def shobu(self, seat: int) -> None:
        yaku = self.yaku[seat]
        base = sum(points for _id, points in yaku)
        points = final_score(
            base, self.calls[1 - seat], self.rules.options_map, own_koikoi_calls=self.calls[seat]
        )
        self.events.append(
            {
                "type": "shobu",
                "seat": seat,
                "yaku": [list(y) for y in yaku],
                "base": base,
                "points": points,
            }
        )
        self.end_round(seat, points, "shobu")

    # -- rounds --

    def end_round(self, winner: int, points: int, reason: str) -> None:
        scores = list(self.scores)
        if winner >= 0:
            scores[winner] += points
        elif reason == "exhausted" and self.rules.draw_scoring != "none":
            points = 1 if self.rules.draw_scoring == "oya_1" else 6
            scores[self.oya] += points
            winner_for_log = self.oya
            self.events.append({"type": "oya_privilege", "seat": winner_for_log, "points": points})
        self.scores = (scores[0], scores[1])
        self.results = (*self.results, (self.round, winner, points, reason))
        self.events.append(
            {
                "type": "round_end",
                "round": self.round,
                "winner": None if winner < 0 else winner,
                "points": points if winner >= 0 else 0,
                "reason": reason,
                "scores": list(self.scores),
            }
        )
        if winner >= 0:
            self.oya = winner
        if self.round >= self.rules.rounds:
            self.phase = "over"
            self.events.append({"type": "game_over", "scores": list(self.scores)})
            return
        self.round += 1
        self.attempt = 0
        self.deal(None)

    def deal(self, stacked: tuple | None) -> None:
        """Deal (or use the stacked deal), redealing while the rules ask for it."""
        while True:
            if stacked is not None:
                (hands, table, pile), stacked = stacked, None
            else:
                hands, table, pile = shuffled_deal(
                    self.state.seed, self.round, self.attempt, self.oya
                )
            self.attempt += 1
            table_mask = mask_of(table)
            if has_four_of_a_month(table_mask):
                self.events.append({"type": "redeal", "round": self.round, "reason": "table"})
                continue
            if self.dealt_yaku(table):  # four pairs: a misdeal when dealt hands count ([FW])
                self.events.append({"type": "redeal", "round": self.round, "reason": "table_pairs"})
                continue
            dealt = [self.dealt_yaku(hand) for hand in hands]
            if self.rules.dealt_hands == "redeal" and any(dealt):
                self.events.append({"type": "redeal", "round": self.round, "reason": "hand"})
                continue
            break
        self.hands = list(hands)
        self.table, self.pile = table, pile
        self.captured = [(), ()]
        self.masks = [0, 0, table_mask]
        self.calls = (0, 0)
        self.yaku = ((), ())
        self.drawn = None
        self.phase = "play"
        self.turn = self.oya
        self.events.append(
            {
                "type": "deal",
                "round": self.round,
                "oya": self.oya,
                "month": month_of_round(self.round),
                "table": list(table),
            }
        )
        if self.rules.dealt_hands == "score" and any(dealt):
            for seat in (0, 1):
                if dealt[seat]:
                    self.events.append(
                        {
                            "type": "dealt_yaku",
                            "seat": seat,
                            "yaku": [list(y) for y in dealt[seat]],
                            "hand": list(hands[seat]),
                        }
                    )
            if all(dealt):
                self.end_round(-1, 0, "dealt_draw")
            else:
                winner = 0 if dealt[0] else 1
                self.end_round(winner, sum(p for _y, p in dealt[winner]), "dealt_hand")

    def dealt_yaku(self, hand: tuple[str, ...]) -> list[tuple[str, int]]:
        if self.rules.dealt_hands == "off":
            return []
        mask = DECK.mask(hand)
        for row in self.rules.judge.dealt_rows:
            points = _row_points(row, mask, None)
            if points:
                return [(row.id, points)]
        return []

    def new_log(self, log: tuple[tuple[dict, ...], ...]) -> tuple[tuple[dict, ...], ...]:
        """The state keeps the events of the current round only (from its deal, which follows
        the previous round's end in the same group): replays read the move log."""
        events = tuple(self.events)
        if self.round != self.state.round or not log:
            return (events,)
        return (*log, events)

    def frozen(self, log: tuple[tuple[dict, ...], ...]) -> KoikoiState:
        """The new state; the log keeps the events of the last ``LOG_GROUPS`` applies."""
        state, masks = self.state, self.masks
        return _new_state(
            (
                state.seed,
                state.options,
                self.round,
                self.oya,
                self.attempt,
                (self.hands[0], self.hands[1]),
                self.table,
                self.pile,
                (self.captured[0], self.captured[1]),
                self.phase,
                self.turn,
                self.drawn,
                self.calls,
                self.yaku,
                self.scores,
                self.results,
                self.new_log(log),
                (masks[0], masks[1], masks[2]),
                self.rules,
            )
        )


def _new_state(fields: tuple) -> KoikoiState:
    """A state from its fields in order (no keyword handling: this is the hot path)."""
    return tuple.__new__(KoikoiState, fields)
