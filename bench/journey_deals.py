"""How often a deal of the classmates journey ends before the journey's steps can run.

The journey (tests/journeys/test_journey_classmates.py) deals a real table with a random seed,
as the product does, and plays it to its end: two students, the other seats CPU players. On the
way it waits for given turns: A reloads after 2 human moves; B's tab hides while A moves (after
3, on A's turn); B's second device is stale (after 4, on B's turn); A leaves on B's turn after 5
and a CPU stand-in plays A's next turn. A deal where the game ends first (a short game, or a
human seat out of it) fails the journey although nothing is wrong with the product.

This script plays the journey's schedule on the engines alone, over many seeds, with the
journey's own ``GAMES`` settings (imported from the test), the human seats playing either the
first legal action (what the journey clicks when no button is marked primary) or the CPU's
choice, and prints the share of deals in which a step could not run.

    .venv/bin/python bench/journey_deals.py [--deals 400] [--set kazoku-words:target_points=5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "journeys")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")

import django  # noqa: E402

django.setup()

import test_journey_classmates as journey  # noqa: E402

from games.engines import get_engine  # noqa: E402

HUMANS = (0, 1)


def players_of(name: str) -> int:
    """Two humans at Koi-Koi (a two-player game); two humans and two CPU players elsewhere."""
    return 2 if name == "koikoi" else 4


def deal_runs_every_step(name: str, options: dict, seed: int, humans_play: str) -> bool:
    """Whether the journey's steps (``journey.STEPS``, in ``journey.next_step``'s order) can all
    run on the deal of ``seed``."""
    eng = get_engine(name)
    level = "normal" if "normal" in eng.BOT_LEVELS else eng.BOT_LEVELS[0]
    bot = eng.bot(level)
    state = eng.new_game(players_of(name), seed, options)
    rng = random.Random(seed)

    def choose(seat: int) -> dict:
        legal = eng.legal_actions(state, seat)
        if seat in HUMANS and humans_play == "first":
            return legal[0]
        return bot.choose(eng.bot_view(state, seat), legal, rng)

    def to_act() -> list[int]:
        return [] if eng.is_over(state) else eng.to_act(state)

    def play(seat: int | None = None) -> None:
        """``seat``'s move (None: nobody's), then the CPU seats' (inline, as eager mode)."""
        nonlocal state
        if seat is not None:
            state, _ = eng.apply(state, seat, choose(seat))
        while (acting := to_act()) and acting[0] not in HUMANS:
            state, _ = eng.apply(state, acting[0], choose(acting[0]))

    seat_of = {step: seat for step, _, seat in journey.STEPS}
    play()  # the CPU seats before the first human
    moves, done = 0, set()
    while (acting := to_act()) and moves < journey.MAX_MOVES:
        play(acting[0])
        moves += 1
        step = journey.next_step(moves, done, to_act())
        if step == "leave":  # B plays on while A is away, then a stand-in plays A's turn
            while to_act() == [1]:
                play(1)
            if not to_act():
                return False  # the game ended on B's moves while A was away
            play(0)
        elif step is not None and seat_of[step] is not None:
            play(seat_of[step])  # the step's own move (hide: A's, stale: B's)
        if step not in (None, "reload"):
            moves += 1
        if step is not None:
            done.add(step)
    return done == set(seat_of)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--set", action="append", default=[], metavar="GAME:OPTION=VALUE")
    args = parser.parse_args()
    games = {name: dict(options) for name, options in journey.GAMES.items()}
    for item in args.set:
        name, assignment = item.split(":", 1)
        option, value = assignment.split("=", 1)
        games[name][option] = int(value) if value.isdigit() else value
    print(f"{args.deals} deals per game; share of deals on which a journey step cannot run")
    for name, options in games.items():
        shares = []
        for humans_play in ("first", "cpu"):
            failed = sum(
                not deal_runs_every_step(name, options, seed, humans_play)
                for seed in range(args.deals)
            )
            shares.append(f"humans play {humans_play}: {failed / args.deals:.1%}")
        print(f"{name} {options}: " + ", ".join(shares))


if __name__ == "__main__":
    main()
