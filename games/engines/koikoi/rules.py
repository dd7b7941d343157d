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
  always — ``may_discard``). Then the top card of the pile is turned and matched the same
  way (with ``draw_capture="optional"`` a drawn card that matches may be left on the table).
- After a turn in which the player formed a new yaku or raised one (``koikoi_on``), they
  choose koi-koi (play on) or shōbu (end the round and score). Only the shōbu caller scores:
  ``yaku.final_score``. Both hands empty without shōbu: nobody scores (``draw_scoring``).
- ``rounds`` rounds (12, 6 or 3); the total decides, ties share the rank.

A turn is written once, here: ``apply`` checks the action against the rules
(``checked_play``, ``draw_actions``, ``checked_decision``) and plays it on a ``Round``, the
scratch of one action — ``play`` (step 1), ``turn_up`` (step 2), ``take_drawn`` (the choice
for a turned card), ``end_turn`` (the yaku check, ``yaku_improved``), ``koikoi`` / ``shobu``
and, when a round ends, ``end_round`` and ``deal`` — turned back into a frozen
``KoikoiState`` at the end. Card sets are bit masks (``index.py``) so that this one path is
also the fast one: there is no second copy of the rules for speed.

Everything here is pure. Randomness: each deal shuffles with
``shuffled(seed, f"{round}/{attempt}")``, a pure function of the stored seed (SHAKE-256
keys; no RNG object to carry).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.engines.base import IllegalAction
from games.engines.koikoi.cards import DECK
from games.engines.koikoi.index import (
    BIT,
    CARD_OF_BIT,
    MONTH_MASK_OF,
    deal_cards,
    has_four_of_a_month,
    mask_of,
    shuffled_ids,
)
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
_new = tuple.__new__  # a state from its fields in order (no keyword handling: the hot path)


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


# --- what may be done -------------------------------------------------------------------------


def legal_actions(state: KoikoiState, seat: int) -> list[dict]:
    """Every action ``seat`` may take now (the engine's ``legal_actions``)."""
    if state.phase == "over" or seat != state.turn:
        return []
    rules = state.rules or settings_for(state.options)
    if state.phase == "draw":
        return draw_actions(state, rules)
    if state.phase == "decide":
        if state.hands[0] or state.hands[1]:
            return [{"type": "koikoi"}, {"type": "shobu"}]
        return [{"type": "shobu"}]  # both hands empty: koi-koi could only lose the round
    # step 1: a hand card of a month on the table (one action per table card it may take
    # of two), or one that matches nothing when the rules allow it
    table, table_mask, hand = state.table, state.masks[2], state.hands[seat]
    discard = may_discard(hand, table_mask, rules.free_discard)
    actions = []
    for card in hand:
        same = table_mask & MONTH_MASK_OF[card]
        if same.bit_count() == 2:
            first, second = matches(table, card, table_mask)
            actions.append({"type": "play", "card": card, "take": first})
            actions.append({"type": "play", "card": card, "take": second})
        elif same or discard:
            actions.append({"type": "play", "card": card})
    return actions


def may_discard(hand: tuple[str, ...], table_mask: int, free_discard: bool) -> bool:
    """Whether a hand card that matches nothing on the table may be played: the player « pose
    n'importe quelle carte de sa main appartenant au même mois que l'une des cartes déjà
    posées sur la table » and, « si aucune carte de sa main ne correspond […], une carte
    quelconque ». ``free_discard``: any card, always."""
    if free_discard:
        return True
    for card in hand:
        if table_mask & MONTH_MASK_OF[card]:
            return False
    return True


def draw_actions(state: KoikoiState, rules: Settings) -> list[dict]:
    """The choice for a turned card: which of two table cards it takes, or (with
    ``draw_capture="optional"``) whether it captures at all."""
    same = matches(state.table, state.drawn, state.masks[2])  # type: ignore[arg-type]
    if len(same) == 2:
        actions = [{"type": "take", "card": same[0]}, {"type": "take", "card": same[1]}]
    else:
        actions = [{"type": "take"}]
    if rules.draw_capture == "optional":
        actions.append({"type": "leave"})
    return actions


def checked_play(state: KoikoiState, rules: Settings, seat: int, action: Any) -> tuple:
    """(the hand card, the mask of the table cards it captures), or IllegalAction."""
    if action.get("type") != "play":
        raise IllegalAction("Play a card from your hand first.")
    card = action.get("card")
    hand = state.hands[seat]
    if type(card) is not str or card not in hand:
        raise IllegalAction("That card is not in your hand.")
    table_mask = state.masks[2]
    same = table_mask & MONTH_MASK_OF[card]
    # "type" and "card" are keys of the action (read above): its other keys, by count
    if same.bit_count() == 2:
        take = action.get("take")
        if len(action) != 3 or type(take) is not str or not BIT.get(take, 0) & same:
            raise IllegalAction("Two cards of that month are on the table: take one.")
        return card, BIT[take]  # of two, the one chosen
    if len(action) != 2:
        raise IllegalAction("There is no choice to make for that card.")
    if not same and not may_discard(hand, table_mask, rules.free_discard):
        raise IllegalAction("A card of your hand matches a table card: play one that captures.")
    return card, same  # none, one, or all three


def checked_decision(state: KoikoiState, action: Any) -> str:
    """``"koikoi"`` or ``"shobu"``, or IllegalAction (koi-koi needs a card left to play)."""
    kind = action.get("type")
    if len(action) == 1:  # {"type": ...} and nothing else
        if kind == "koikoi" and (state.hands[0] or state.hands[1]):
            return kind
        if kind == "shobu":
            return kind
    raise IllegalAction("Call koi-koi to play on, or shōbu to end the round.")


def yaku_improved(before: tuple, now: tuple, koikoi_on: str) -> bool:
    """Whether ``now`` (the yaku after a turn) asks koi-koi or shōbu against ``before``: a new
    yaku, or (``koikoi_on="new_or_raised"``, the default) one whose points rose."""
    if not now or now == before:
        return False
    points = dict(before)
    if koikoi_on == "new_or_raised":
        for yaku_id, new_points in now:
            if new_points > points.get(yaku_id, 0):
                return True
        return False
    for yaku_id, _points in now:
        if yaku_id not in points:
            return True
    return False


# --- one action ---------------------------------------------------------------------------


def apply(state: KoikoiState, seat: int, action: Any) -> tuple[KoikoiState, list[dict]]:
    """One action by the rules (the engine's ``apply``): the new state and its events (copies
    of the logged ones); a refused action raises ``IllegalAction``."""
    if state.phase == "over":
        raise IllegalAction("The game is over.")
    if seat != state.turn:
        raise IllegalAction("It is not your turn.")
    if type(action) is not dict and not isinstance(action, Mapping):
        raise IllegalAction("An action must be an object with a type.")
    rules = state.rules or settings_for(state.options)
    phase = state.phase
    if phase == "play":
        card, same = checked_play(state, rules, seat, action)
        turn = Round(state, rules)
        turn.play(seat, card, same)
    elif phase == "draw":
        if action not in draw_actions(state, rules):
            raise IllegalAction("Choose what the turned card captures.")
        turn = Round(state, rules)
        turn.take_drawn(seat, action.get("card"), action["type"] == "leave")
    else:
        decision = checked_decision(state, action)
        turn = Round(state, rules)
        if decision == "koikoi":
            turn.koikoi(seat)
        else:
            turn.shobu(seat)
    return turn.frozen(), list(map(dict, turn.events))


class Round:
    """The mutable scratch of one action (or of a deal): the state's fields, the capture piles
    and the field also kept as bit masks (``masks``: pile 0, pile 1, table), and the events."""

    __slots__ = (
        "state", "rules", "hands", "table", "pile", "captured", "phase", "turn", "drawn",
        "calls", "yaku", "scores", "results", "round", "oya", "attempt", "events", "taken",
        "masks",
    )  # fmt: skip

    def __init__(self, state: KoikoiState, rules: Settings) -> None:
        self.state = state
        self.rules = rules
        (
            _seed, _options, self.round, self.oya, self.attempt, self.hands, self.table,
            self.pile, self.captured, self.phase, self.turn, self.drawn, self.calls, self.yaku,
            self.scores, self.results, _log, masks, _rules,
        ) = state  # every field of the state, in order  # fmt: skip
        self.masks = list(masks)
        self.events: list[dict] = []
        self.taken = False  # the seat captured something this action

    # -- one turn --

    def play(self, seat: int, card: str, same: int) -> None:
        """Step 1: a hand card goes to the table and captures the cards of its month there
        (``same``: their mask; of two, the one chosen)."""
        hands = self.hands
        hand = hands[seat]
        at = hand.index(card)
        hand = hand[:at] + hand[at + 1 :]
        self.hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
        captured = self.capture(seat, card, same)
        self.events.append({"type": "play", "seat": seat, "card": card, "captured": captured})
        self.turn_up(seat)

    def turn_up(self, seat: int) -> None:
        """Step 2: the top card of the pile is turned and matched the same way; the player
        chooses when it matches two (or, ``draw_capture="optional"``, whether to capture)."""
        card = self.pile[0]
        self.pile = self.pile[1:]
        same = self.masks[2] & MONTH_MASK_OF[card]
        if same and (same.bit_count() == 2 or self.rules.draw_capture == "optional"):
            self.drawn = card
            self.phase = "draw"
            self.events.append({"type": "draw", "seat": seat, "card": card, "captured": None})
            return
        captured = self.capture(seat, card, same)
        self.events.append({"type": "draw", "seat": seat, "card": card, "captured": captured})
        self.end_turn(seat)

    def take_drawn(self, seat: int, take: str | None, leave: bool) -> None:
        """The choice for a turned card: capture (``take``: which of two), or leave it."""
        card = self.drawn
        assert card is not None
        self.drawn = None
        self.taken = True  # the hand card of this turn may have captured: judge the pile
        if leave:
            same = 0
        elif take is not None:
            same = BIT[take]
        else:  # one or three: all of them
            same = self.masks[2] & MONTH_MASK_OF[card]
        captured = self.capture(seat, card, same)
        self.events.append({"type": "take", "seat": seat, "card": card, "captured": captured})
        self.end_turn(seat)

    def capture(self, seat: int, card: str, same: int) -> list[str]:
        """``card`` takes the table cards of the mask ``same``, in table order, into the
        seat's pile; with nothing to take it stays on the table. Returns the cards won."""
        masks, table = self.masks, self.table
        if not same:
            self.table = (*table, card)
            masks[2] |= BIT[card]
            return []
        if same & (same - 1):  # three of the month: all of them
            won = [card, *[c for c in table if BIT[c] & same]]
            self.table = tuple([c for c in table if not BIT[c] & same])
        else:
            other = CARD_OF_BIT[same]
            at = table.index(other)
            won = [card, other]
            self.table = table[:at] + table[at + 1 :]
        piles = self.captured
        pile = (*piles[seat], *won)
        self.captured = (pile, piles[1]) if seat == 0 else (piles[0], pile)
        gained = BIT[card] | same
        masks[2] &= ~gained
        masks[seat] |= gained
        self.taken = True
        return won

    def end_turn(self, seat: int) -> None:
        """The turn is over: a player who captured has their yaku judged again; a new or
        raised yaku (``yaku_improved``) asks them koi-koi or shōbu."""
        self.phase = "play"
        if self.taken:
            yaku = self.yaku
            before = yaku[seat]
            now = tuple(judge_mask(self.rules.judge, self.masks[seat], month_of_round(self.round)))
            self.yaku = (now, yaku[1]) if seat == 0 else (yaku[0], now)
            if now != before and yaku_improved(before, now, self.rules.koikoi_on):
                self.events.append({"type": "yaku", "seat": seat, "yaku": [list(y) for y in now]})
                self.phase = "decide"
                self.turn = seat
                return
        self.next_turn(seat)

    def next_turn(self, seat: int) -> None:
        """The other player's turn, or, both hands empty, the end of the round: nobody won."""
        if not self.hands[0] and not self.hands[1]:
            self.end_round(-1, 0, "exhausted")
        else:
            self.turn = 1 - seat

    def koikoi(self, seat: int) -> None:
        """Koi-koi: the player plays on (the calls count for the opponent's score)."""
        calls = list(self.calls)
        calls[seat] += 1
        self.calls = (calls[0], calls[1])
        self.events.append({"type": "koikoi", "seat": seat, "calls": calls[seat]})
        self.phase = "play"
        self.next_turn(seat)

    def shobu(self, seat: int) -> None:
        """Shōbu: the round ends and the caller scores their yaku (``yaku.final_score``)."""
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
        """The round is scored (``winner`` -1: nobody won it); the next one is dealt, or the
        game is over."""
        scores = list(self.scores)
        if winner >= 0:
            scores[winner] += points
        elif reason == "exhausted" and self.rules.draw_scoring != "none":
            points = 1 if self.rules.draw_scoring == "oya_1" else 6
            scores[self.oya] += points
            self.events.append({"type": "oya_privilege", "seat": self.oya, "points": points})
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
        """Deal (or use the stacked deal) until the rules accept it, start the round, and end
        it at once when a dealt hand scores (``dealt_hands="score"``)."""
        hands, table, pile, table_mask, dealt = self.accepted_deal(stacked)
        self.hands = hands
        self.table, self.pile = table, pile
        self.captured = ((), ())
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
            self.score_dealt_hands(hands, dealt)

    def accepted_deal(self, stacked: tuple | None) -> tuple:
        """(hands, table, pile, table mask, each hand's dealt yaku) of the first deal the rules
        accept: four of a month on the table, four pairs on it when dealt hands count ([FW]),
        or a dealt hand under ``dealt_hands="redeal"`` are dealt again."""
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
            if self.dealt_yaku(table):
                self.events.append({"type": "redeal", "round": self.round, "reason": "table_pairs"})
                continue
            dealt = [self.dealt_yaku(hand) for hand in hands]
            if self.rules.dealt_hands == "redeal" and any(dealt):
                self.events.append({"type": "redeal", "round": self.round, "reason": "hand"})
                continue
            return hands, table, pile, table_mask, dealt

    def score_dealt_hands(self, hands: tuple, dealt: list) -> None:
        """A dealt hand wins the round with its points; both: nobody scores."""
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

    def frozen(self) -> KoikoiState:
        """The new state. Its log keeps the events of the current round only (from its deal,
        which follows the previous round's end in the same group): replays read the move log."""
        state, masks = self.state, self.masks
        events, log = tuple(self.events), state.log
        return _new(
            KoikoiState,
            (
                state.seed,
                state.options,
                self.round,
                self.oya,
                self.attempt,
                self.hands,
                self.table,
                self.pile,
                self.captured,
                self.phase,
                self.turn,
                self.drawn,
                self.calls,
                self.yaku,
                self.scores,
                self.results,
                (*log, events) if log and self.round == state.round else (events,),
                (masks[0], masks[1], masks[2]),
                self.rules,
            ),
        )
