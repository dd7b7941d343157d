"""The ceiling of ``bench/engines.py``'s loop: how many random 4-player games per second any
engine could reach, beside Bōzu Mekuri (docs/bench.md, "Bōzu Mekuri engine speed").

    .venv/bin/python bench/engines_floor.py --games 2000

Three engines play the loop of ``bench/engines.random_game``, game by game in turn so that all
see the same machine load (the ratios are the load-independent figures):

- ``bozu``: the real engine, default rules;
- ``minimal``: the contract's least: ``apply`` checks the action and builds one ``reveal``
  event and one new immutable state per card (the pile an index into a shared tuple, the
  card added to a hand as one small tuple), 104 cards a game; no rules, no deal;
- ``null``: an engine doing nothing at all (the loop's own cost).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engines import random_game  # noqa: E402
from games.engines import get_engine  # noqa: E402

CARDS = 104  # actions in a random 4-player Bōzu game under the default rules
DRAW = {"type": "draw"}
PILE = tuple(f"p{n:03d}" for n in range(1, CARDS + 1))


class MinimalState:
    __slots__ = ("drawn", "turn", "over", "hands")

    def __init__(self, drawn: int, turn: int, over: bool, hands: tuple) -> None:
        self.drawn, self.turn, self.over, self.hands = drawn, turn, over, hands


class MinimalEngine:
    def new_game(self, players: int, seed: int, options: dict) -> MinimalState:
        return MinimalState(0, 0, False, ((0,),) * players)

    def is_over(self, state: MinimalState) -> bool:
        return state.over

    def to_act(self, state: MinimalState) -> list[int]:
        return [] if state.over else [state.turn]

    def legal_actions(self, state: MinimalState, seat: int) -> list[dict]:
        return [] if seat != state.turn or state.over else [{"type": "draw"}]

    def apply(self, state: MinimalState, seat: int, action: dict) -> tuple:
        if type(action) is not dict or action != DRAW or seat != state.turn or state.over:
            raise ValueError("illegal")
        card = PILE[state.drawn]
        event = {"type": "reveal", "seat": seat, "card": card, "effect": "noble"}
        hands = list(state.hands)
        hands[seat] = (hands[seat][0] + 1, hands[seat], card)
        drawn = state.drawn + 1
        new = MinimalState(drawn, (seat + 1) % len(hands), drawn == CARDS, tuple(hands))
        return new, [event]


class NullState:
    __slots__ = ("drawn",)

    def __init__(self, drawn: int) -> None:
        self.drawn = drawn


class NullEngine:
    TO_ACT, LEGAL, EVENTS = [0], [DRAW], []

    def new_game(self, players: int, seed: int, options: dict) -> NullState:
        return NullState(0)

    def is_over(self, state: NullState) -> bool:
        return state.drawn == CARDS

    def to_act(self, state: NullState) -> list[int]:
        return self.TO_ACT

    def legal_actions(self, state: NullState, seat: int) -> list[dict]:
        return self.LEGAL

    def apply(self, state: NullState, seat: int, action: dict) -> tuple:
        return NullState(state.drawn + 1), self.EVENTS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engines = {"bozu": get_engine("bozu"), "minimal": MinimalEngine(), "null": NullEngine()}
    seconds = dict.fromkeys(engines, 0.0)
    load = os.getloadavg()[0]
    for game in range(args.games):
        for name, engine in engines.items():
            started = time.process_time()
            random_game(engine, 4, args.seed + game, {})
            seconds[name] += time.process_time() - started
    print(f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}, {args.games} games each")
    for name in engines:
        rate = args.games / seconds[name]
        ratio = seconds["bozu"] / seconds[name]
        print(f"{name:8} {rate:8,.0f} games/s  ({ratio:.2f}x bozu)")


if __name__ == "__main__":
    main()
