"""CPU players of Bōzu Mekuri. The only choice is ``draw`` or ``stop`` when an emperor or a lady
offers an extra draw and stopping is allowed; every other turn has one legal action.

- ``easy``: draws or stops at random.
- ``normal``: a simple threshold: draws again while its hand holds fewer than
  ``NORMAL_STOP_AT`` cards (a monk costs little), stops beyond.
- ``hard``: the expected value of one more card, from the composition of the unseen cards that
  its own view gives (``unseen_effects``): if it stops, the next player reveals that card, so
  it weighs what the card would change to its hand against what it would change to the next
  player's. Draws when that is positive (a small hand risks little against a monk).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.base import Bot

NORMAL_STOP_AT = 6
ELIMINATION_COST = 10  # an eliminated player ranks last: worth about this many cards


def gain(effect: str, hand: int, common: int, others: int) -> float:
    """What a card with ``effect`` changes to the hand of the player who draws it (in cards;
    an elimination costs ``ELIMINATION_COST`` more). ``others``: the other players' cards."""
    return {
        "noble": 1.0,
        "emperor": 1.0,
        "skip": 0.5,
        "monk": -hand,
        "lady": 1.0 + common,
        "empress": 1.0 + common,
        "take_hands": 1.0 + others,
        "eliminate": -hand - ELIMINATION_COST,
        "all_hands": -hand,
    }[effect]


def next_player(view: Mapping[str, Any]) -> int:
    """The seat that reveals the next card if this one stops."""
    seat, players = view["seat"], view["players"]
    for step in range(1, players):
        other = (seat + step) % players
        if not view["eliminated"][other]:
            return other
    return seat


def card_value(effect: str, view: Mapping[str, Any]) -> float:
    """Drawing a card instead of stopping: what it gives this seat minus what it would give
    the next player, who reveals it if this seat stops."""
    sizes = [len(hand) for hand in view["hands"]]
    total, common = sum(sizes), len(view["common"])
    me, other = view["seat"], next_player(view)
    mine = gain(effect, sizes[me], common, total - sizes[me])
    theirs = gain(effect, sizes[other], common, total - sizes[other])
    return mine - theirs


def draw_value(view: Mapping[str, Any]) -> float:
    """The expected value of drawing one more card (see ``card_value``)."""
    unseen = view["unseen_effects"]
    total = sum(unseen.values())
    if not total:
        return 0.0
    return sum(count * card_value(effect, view) for effect, count in unseen.items()) / total


class EasyBot(Bot):
    level = "easy"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        return dict(rng.choice(legal_actions))


class NormalBot(Bot):
    level = "normal"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        if len(legal_actions) == 1:
            return dict(legal_actions[0])
        wanted = "draw" if len(view["hand"]) < NORMAL_STOP_AT else "stop"
        return _pick(legal_actions, wanted)


class HardBot(Bot):
    level = "hard"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random
    ) -> dict:
        if len(legal_actions) == 1:
            return dict(legal_actions[0])
        return _pick(legal_actions, "draw" if draw_value(view) > 0 else "stop")


def _pick(legal_actions: Sequence[dict], wanted: str) -> dict:
    for action in legal_actions:
        if action["type"] == wanted:
            return dict(action)
    return dict(legal_actions[0])


BOTS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}


def make_bot(level: str) -> Bot:
    return BOTS[level]()
