"""CPU players for Kazoku families. Stateless: each decision reads the view's public summary.

- ``easy``: a random legal ask.
- ``normal``: remembers what the log shows for certain (who was given or showed which card,
  who was asked for a card and did not have it, who asked for which card) and asks a seat known
  to hold a missing card; otherwise a random ask it has not seen fail.
- ``hard``: estimates, for every card it lacks, the probability that each opponent holds it
  (from hand sizes, certain locations, seen refusals weakened by later draws, and the families
  each opponent revealed by asking), then asks for the card with the best chance, favouring the
  families it is closest to completing.

Every bot lays only when laying is its only action: a complete family is safe in the hand
(nobody else can hold one of its cards, so nobody may ask for them) and is laid anyway when
the turn ends, while asking on keeps the turn going.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engines.base import Bot
from games.engines.kazoku.index import Rules, rules_for

# A refusal seen ``k`` draws ago: how likely the seat has drawn the card since (per draw).
_REDRAW_WEIGHT = 0.15
# An opponent who asked for a family holds at least one of its cards: weight boost.
_SIGNAL_BOOST = 2.5


@dataclass
class Memory:
    """A seat's memory of the public log: the view's ``known`` summary, ready to query."""

    holder: dict[str, int]  # card -> seat known to hold it
    refused: list[dict[str, int]]  # per seat: card -> its draws when known not to hold it
    draws: list[int]  # draws per seat so far
    signals: list[set[str]]  # families each seat asked for and has not laid

    def absent_since(self, seat: int, card: str) -> int | None:
        return self.refused[seat].get(card)


def read_log(view: Mapping[str, Any]) -> Memory:
    """The memory a bot decides on, from the public summary of the log in its view.

    The engine sums the log up once per view (``families.public_knowledge``), so a
    decision costs the same at the first turn and at the last.
    """
    known = view["known"]
    return Memory(
        holder=known["holders"],
        refused=known["refused"],
        draws=known["draws"],
        signals=[set(families) for families in known["asked_families"]],
    )


def _asks(legal: Sequence[dict]) -> list[dict]:
    return [action for action in legal if action["type"] == "ask"]


class EasyBot(Bot):
    level = "easy"

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random):
        asks = _asks(legal_actions)
        return rng.choice(asks or list(legal_actions))


class NormalBot(Bot):
    level = "normal"

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random):
        asks = _asks(legal_actions)
        if not asks:
            return legal_actions[0]
        memory = read_log(view)
        sure = [a for a in asks if memory.holder.get(a["card"]) == a["target"]]
        if sure:
            return rng.choice(sure)
        untried = [
            a
            for a in asks
            if memory.absent_since(a["target"], a["card"]) != memory.draws[a["target"]]
            and a["card"] not in memory.holder
        ]
        return rng.choice(untried or asks)


class HardBot(Bot):
    level = "hard"

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random):
        asks = _asks(legal_actions)
        if not asks:
            return legal_actions[0]
        rules = rules_for(view["variant"])
        memory = read_log(view)
        hand = set(view["hand"])
        progress = self._progress(rules, hand)
        chances = self._chances(view, rules, memory, hand, {a["card"] for a in asks})
        pile = view["pile_size"]

        def score(action: dict) -> float:
            card, target = action["card"], action["target"]
            given = chances[card].get(target, 0.0)
            good_pick = chances[card].get("pile", 0.0) / pile if pile else 0.0
            family = rules.family_of[card]
            return (given + (1 - given) * good_pick) * (1.0 + progress[family])

        best = max(score(action) for action in asks)
        return rng.choice([a for a in asks if score(a) >= best - 1e-9])

    @staticmethod
    def _progress(rules: Rules, hand: set[str]) -> dict[str, float]:
        """Family -> share of it already in hand (closer to complete = more urgent)."""
        return {
            family: sum(card in hand for card in members) / len(members)
            for family, members in rules.members.items()
        }

    @staticmethod
    def _chances(
        view: Mapping[str, Any],
        rules: Rules,
        memory: Memory,
        hand: set[str],
        wanted: set[str],
    ) -> dict[str, dict[Any, float]]:
        """For each wanted card: location (opponent seat or "pile") -> probability."""
        seat, sizes = view["seat"], view["hand_sizes"]
        known_at = [0] * view["players"]
        for card, holder in memory.holder.items():
            if card not in hand:
                known_at[holder] += 1
        chances: dict[str, dict[Any, float]] = {}
        for card in wanted:
            holder = memory.holder.get(card)
            if holder is not None and holder != seat:
                chances[card] = {holder: 1.0}
                continue
            family = rules.family_of[card]
            weights: dict[Any, float] = {"pile": float(view["pile_size"])}
            for other in range(view["players"]):
                if other == seat:
                    continue
                weight = float(max(sizes[other] - known_at[other], 0))
                refused_at = memory.absent_since(other, card)
                if refused_at is not None:
                    weight *= min(1.0, _REDRAW_WEIGHT * (memory.draws[other] - refused_at))
                if family in memory.signals[other]:
                    weight *= _SIGNAL_BOOST
                weights[other] = weight
            total = sum(weights.values())
            chances[card] = {where: w / total for where, w in weights.items()} if total else {}
        return chances


_BOTS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}


def make_bot(level: str) -> Bot:
    return _BOTS[level]()
