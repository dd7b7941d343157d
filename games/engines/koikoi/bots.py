"""CPU players for Koi-Koi. Stateless: each decision reads only the seat's own view.

- ``easy``: a random legal action.
- ``normal``: greedy capture value — the play that captures the most card value (bright 20,
  animal 10, ribbon 5, chaff 1, the usual hanafuda values); shōbu as soon as it may.
- ``hard``: values each capture by the yaku progress it brings (how close each yaku of the
  table gets, weighted by its points) and by the threat it removes (the same measure on the
  opponent's pile), avoids leaving the opponent cards that advance its yaku, and decides
  koi-koi by expected value: it samples the hidden cards (opponent hand and pile) from the
  cards its own view does not show, plays the rest of the round out greedily in each sample,
  and calls koi-koi only when continuing is worth more on average than scoring now.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from games.engines.base import Bot
from games.engines.koikoi.cards import DECK
from games.engines.koikoi.rules import MONTH_OF, month_of_round, settings_for
from games.engines.koikoi.yaku import Judge, Row, final_score, judge_mask

CARD_VALUE = {"bright": 20, "animal": 10, "ribbon": 5, "chaff": 1}
VALUE = {card.id: CARD_VALUE[card.kind] for card in DECK.cards.values()}
BIT = DECK.bit
SAMPLES = 24  # hidden-card samples per koi-koi decision


def _options_key(view: Mapping[str, Any]) -> tuple:
    return tuple(sorted(view["options"].items()))


def _captured_by(action: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """The cards an action captures at once (the turned card's fate is not known yet)."""
    table = view["table"]
    if action["type"] == "play":
        card = action["card"]
        same = [c for c in table if MONTH_OF[c] == MONTH_OF[card]]
    elif action["type"] == "take":
        card = view["drawn"]
        same = [c for c in table if MONTH_OF[c] == MONTH_OF[card]]
    else:
        return []
    if not same:
        return []
    if len(same) == 2:
        return [card, action.get("take") or action.get("card")]
    return [card, *same]


class EasyBot(Bot):
    level = "easy"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        return dict(rng.choice(list(legal_actions)))


class NormalBot(Bot):
    level = "normal"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        if any(a["type"] == "shobu" for a in legal_actions):
            return {"type": "shobu"}
        best, best_value = [], -1
        for action in legal_actions:
            captured = _captured_by(action, view)
            value = sum(VALUE[c] for c in captured)
            if not captured and action["type"] == "play":
                value = -VALUE[action["card"]] / 100  # discard the cheapest card
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return dict(rng.choice(best))


# --- hard -----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _progress_rows(judge: Judge) -> tuple[tuple[int, int, int], ...]:
    """(mask of the cards a yaku needs, how many of them, its points) for each pile yaku."""
    rows = []
    for row in judge.pile_rows:
        rows.append(_need(row))
    return tuple(r for r in rows if r[1])


def _need(row: Row) -> tuple[int, int, int]:
    """The cards a yaku is built from and how many it needs (the ``all_of`` cards plus
    ``at_least`` of the counted set)."""
    need = row.all_of.bit_count() + row.at_least
    return row.all_of | row.at_least_mask, need, row.points


def potential(rows: tuple[tuple[int, int, int], ...], mask: int, dead: int) -> float:
    """How close ``mask`` is to each yaku still possible (cards not ``dead``), weighted."""
    total = 0.0
    for need_mask, need, points in rows:
        if need_mask & dead and (need_mask & ~dead).bit_count() < need:
            continue  # the other player holds what this yaku needs
        have = (mask & need_mask).bit_count()
        if have:
            fraction = min(have, need) / need
            total += points * fraction * fraction
    return total


class HardBot(Bot):
    level = "hard"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        if len(legal_actions) == 1:
            return dict(legal_actions[0])
        if legal_actions[0]["type"] in ("koikoi", "shobu"):
            return self.decide(view, rng)
        rules = settings_for(_options_key(view))
        rows = _progress_rows(rules.judge)
        me = view["seat"]
        mine = DECK.mask(view["captured"][me])
        theirs = DECK.mask(view["captured"][1 - me])
        seen = mine | theirs | DECK.mask(view["table"]) | DECK.mask(view["hand"] or ())
        if view["drawn"]:
            seen |= BIT[view["drawn"]]
        base_me = potential(rows, mine, theirs)
        base_them = potential(rows, theirs, mine)
        best, best_value = [], float("-inf")
        for action in legal_actions:
            value = self.value(action, view, rows, mine, theirs, seen, base_me, base_them)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return dict(rng.choice(best))

    def value(
        self,
        action: Mapping[str, Any],
        view: Mapping[str, Any],
        rows: tuple,
        mine: int,
        theirs: int,
        seen: int,
        base_me: float,
        base_them: float,
    ) -> float:
        captured = _captured_by(action, view)
        if action["type"] == "leave":
            captured = []
        if captured:
            gain = DECK.mask(captured)
            mine_after = mine | gain
            me_gain = potential(rows, mine_after, theirs) - base_me
            denial = base_them - potential(rows, theirs, mine_after)
            # cards of the value the opponent could have used
            threat = potential(rows, theirs | gain, mine) - base_them
            return 10 + me_gain * 3 + denial * 2 + threat + sum(VALUE[c] for c in captured) / 10
        # a discard: what it gives the opponent if they match it, less if its month is safe
        card = action.get("card") if action["type"] == "play" else view["drawn"]
        month_mask = DECK.month_mask[MONTH_OF[card]]
        unseen_same = (month_mask & ~seen).bit_count()
        gift = potential(rows, theirs | BIT[card], mine) - base_them
        own_loss = potential(rows, mine | BIT[card], theirs) - base_me
        return -(gift * 2 + own_loss) * (unseen_same / 3 + 0.1) - VALUE[card] / 50

    # -- koi-koi by expected value --

    def decide(self, view: Mapping[str, Any], rng: random.Random) -> dict:
        rules = settings_for(_options_key(view))
        me = view["seat"]
        opponent_calls, own_calls = view["calls"][1 - me], view["calls"][me]
        now = final_score(
            view["yaku"][me], opponent_calls, rules.options_map, own_koikoi_calls=own_calls
        )
        if not view["hand"] or view["round"] == view["rounds"] and self._leading(view, now):
            return {"type": "shobu"}
        total = 0.0
        for _ in range(SAMPLES):
            total += self.simulate(view, rules, rng, own_calls + 1, opponent_calls)
        return {"type": "koikoi"} if total / SAMPLES > now else {"type": "shobu"}

    @staticmethod
    def _leading(view: Mapping[str, Any], now: int) -> bool:
        me = view["seat"]
        return view["scores"][me] + now > view["scores"][1 - me]

    def simulate(
        self,
        view: Mapping[str, Any],
        rules: Any,
        rng: random.Random,
        own_calls: int,
        opponent_calls: int,
    ) -> float:
        """One sampled future after a koi-koi: my score (positive) or the opponent's (neg.)."""
        me = view["seat"]
        known = set(view["hand"]) | set(view["table"])
        known.update(view["captured"][0], view["captured"][1])
        unseen = [card for card in DECK.ids if card not in known]
        rng.shuffle(unseen)
        size = view["hand_sizes"][1 - me]
        hands = {me: list(view["hand"]), 1 - me: unseen[:size]}
        pile = unseen[size:]
        table = list(view["table"])
        piles = {me: list(view["captured"][me]), 1 - me: list(view["captured"][1 - me])}
        judge, month = rules.judge, month_of_round(view["round"])
        best = {
            seat: sum(p for _y, p in judge_mask(judge, DECK.mask(piles[seat]), month))
            for seat in (0, 1)
        }
        calls = {me: own_calls, 1 - me: opponent_calls}
        seat = 1 - me
        while hands[0] or hands[1]:
            if hands[seat]:
                card = max(hands[seat], key=lambda c: _greedy(c, table))
                hands[seat].remove(card)
                _sim_capture(card, table, piles[seat])
                if pile:
                    _sim_capture(pile.pop(), table, piles[seat])
                score = sum(p for _y, p in judge_mask(judge, DECK.mask(piles[seat]), month))
                if score > best[seat]:
                    points = final_score(
                        score, calls[1 - seat], rules.options_map, own_koikoi_calls=calls[seat]
                    )
                    return points if seat == me else -points
            seat = 1 - seat
        return 0.0


def _greedy(card: str, table: list[str]) -> int:
    month = MONTH_OF[card]
    return sum(VALUE[c] for c in table if MONTH_OF[c] == month) + (
        VALUE[card] if any(MONTH_OF[c] == month for c in table) else -VALUE[card]
    )


def _sim_capture(card: str, table: list[str], pile: list[str]) -> None:
    month = MONTH_OF[card]
    same = [c for c in table if MONTH_OF[c] == month]
    if not same:
        table.append(card)
        return
    taken = same if len(same) != 2 else [max(same, key=VALUE.__getitem__)]
    for c in taken:
        table.remove(c)
    pile.extend([card, *taken])


def make_bot(level: str) -> Bot:
    return {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}[level]()
