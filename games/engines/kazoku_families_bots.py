"""CPU players for Kazoku families. Stateless: each decision re-reads the view's public log.

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
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import Bot
from games.engines.kazoku_families import Rules, rules_for

# A refusal seen ``k`` draws ago: how likely the seat has drawn the card since (per draw).
_REDRAW_WEIGHT = 0.15
# An opponent who asked for a family holds at least one of its cards: weight boost.
_SIGNAL_BOOST = 2.5


@dataclass
class Memory:
    """What a seat can know from the public log (rebuilt at every decision)."""

    holder: dict[str, int] = field(default_factory=dict)  # card -> seat known to hold it
    absent: dict[tuple[int, str], int] = field(default_factory=dict)  # (seat, card) -> draws
    draws: list[int] = field(default_factory=list)  # draws per seat so far
    signals: list[set[str]] = field(default_factory=list)  # families each seat asked for
    laid: set[str] = field(default_factory=set)


def read_log(view: Mapping[str, Any], rules: Rules) -> Memory:
    memory = Memory(draws=[0] * view["players"], signals=[set() for _ in range(view["players"])])
    for event in view["log"]:
        kind = event["type"]
        if kind == "ask":
            memory.absent[(event["seat"], event["card"])] = memory.draws[event["seat"]]
            memory.signals[event["seat"]].add(event["family"])
        elif kind == "given":
            memory.holder[event["card"]] = event["to"]
            memory.absent[(event["seat"], event["card"])] = memory.draws[event["seat"]]
            memory.absent.pop((event["to"], event["card"]), None)
        elif kind == "go_fish":
            memory.absent[(event["seat"], event["card"])] = memory.draws[event["seat"]]
        elif kind == "draw":
            memory.draws[event["seat"]] += 1
        elif kind == "good_pick":
            memory.holder[event["card"]] = event["seat"]
            memory.absent.pop((event["seat"], event["card"]), None)
        elif kind == "family_laid":
            memory.laid.update(event["cards"])
            for card in event["cards"]:
                memory.holder.pop(card, None)
            memory.signals[event["seat"]].discard(event["family"])
    return memory


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
        memory = read_log(view, rules_for(view["variant"]))
        sure = [a for a in asks if memory.holder.get(a["card"]) == a["target"]]
        if sure:
            return rng.choice(sure)
        untried = [
            a
            for a in asks
            if memory.absent.get((a["target"], a["card"])) != memory.draws[a["target"]]
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
        memory = read_log(view, rules)
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
                refused_at = memory.absent.get((other, card))
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
