"""Koi-Koi speed before / after a change, and proof that the games did not change.

    .venv/bin/python bench/engines_ab_koikoi.py --base 7e2f457 --same-games   # no timing
    .venv/bin/python bench/engines_ab_koikoi.py --base 7e2f457 --games 200    # rounds/s A/B

The ``games/engines`` package of ``--base`` is extracted with ``git archive`` and imported
beside the working tree's (``bench/engines_ab.py`` does the same for the Kazoku engines).

``--same-games``: both sides play the same seeded games — random legal actions under every
option set of ``FINGERPRINT_OPTIONS`` (300 seeds for the defaults), plus bot games (easy,
normal and hard against each other) — and each side hashes every legal-action list, every
event list, both seats' views at the end of each round and of the game, the final
``to_json`` and the outcome. The two hashes must be equal.

Timing: random play through the contract exactly as ``bench/engines.py`` (``new_game`` +
``to_act`` + ``legal_actions`` + a random choice + ``apply`` until ``is_over``), CPU time, the
two sides **alternating game by game** (and in alternating order) so both see the same load
on the shared machine; rounds/s = 12 rounds per game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engines_ab import ROOT, extract, load_engines  # noqa: E402

FINGERPRINT_OPTIONS: list[dict] = [
    {},
    {"rounds": "3", "draw_capture": "optional", "koikoi_on": "new_only"},
    {"dealt_hands": "score", "tsukifuda": True, "draw_scoring": "oya_6", "viewing": "3"},
    {"dealt_hands": "redeal", "stacking": "older", "sake_cup": "both", "viewing_rule": "rain"},
    {"viewing_rule": "with_other", "sanko_rain_man": True, "bright_points": "15_6"},
    {"koikoi_bonus": "per_call", "double_at_seven": False, "draw_scoring": "oya_1"},
    {"koikoi_bonus": "self", "viewing": "off", "rounds": "6"},
    {"koikoi_bonus": "anyone", "draw_capture": "optional", "dealt_hands": "score"},
]
BOT_PAIRS = [("easy", "normal"), ("normal", "hard"), ("hard", "easy")]


def fingerprint(engine, bots: dict, seeds: int, seed: int) -> str:
    """Hash of everything observable in seeded games: legal actions, events, views, state."""
    digest = hashlib.sha256()

    def feed(value) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    runs = []
    for g in range(seeds):
        runs.append((seed + g, {}, None))
        if g < seeds // 5:
            runs += [(seed + g, options, None) for options in FINGERPRINT_OPTIONS[1:]]
        if g < seeds // 30:
            runs += [(seed + g, {"rounds": "3"}, pair) for pair in BOT_PAIRS]
    for game_seed, options, pair in runs:
        rng = random.Random(game_seed)
        state = engine.new_game(2, game_seed, options)
        feed(engine.to_json(state))
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            feed(legal)
            if pair:
                action = bots[pair[seat]].choose(engine.view(state, seat), legal, rng)
            else:
                action = rng.choice(legal)
            feed(action)
            before = state.round
            state, events = engine.apply(state, seat, action)
            feed(events)
            if state.round != before or engine.is_over(state):
                feed([engine.view(state, s) for s in (0, 1, None)])
        feed(engine.to_json(state))
        feed(engine.outcome(state))
    return f"{len(runs)} games, {digest.hexdigest()[:16]}"


def random_game(engine, seed: int, options: dict) -> tuple[int, int, float]:
    """One random game as bench/engines.py plays it: (rounds, actions, CPU seconds)."""
    clock = time.process_time
    started = clock()
    rng = random.Random(seed)
    state = engine.new_game(2, seed, options)
    actions = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        actions += 1
    return len(state.results), actions, clock() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--games", type=int, default=200, help="12-round games per side")
    parser.add_argument("--seeds", type=int, default=300, help="seeds for --same-games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--same-games", action="store_true", help="compare games, no timing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        extract(args.base, Path(tmp))
        sides = {
            "before": load_engines(Path(tmp), ["koikoi"])["koikoi"],
            "after": load_engines(ROOT, ["koikoi"])["koikoi"],
        }
        if args.same_games:
            hashes = {side: fingerprint(*sides[side], args.seeds, args.seed) for side in sides}
            verdict = "same games" if len(set(hashes.values())) == 1 else "DIFFERENT GAMES"
            print(f"koikoi: before {hashes['before']}; after {hashes['after']}: {verdict}")
            sys.exit(0 if verdict == "same games" else 1)
        load = os.getloadavg()[0]
        totals = {side: [0, 0, 0.0] for side in sides}
        for g in range(args.games):
            order = list(sides) if g % 2 else list(reversed(sides))
            for side in order:
                rounds, actions, seconds = random_game(sides[side][0], args.seed + g, {})
                for i, value in enumerate((rounds, actions, seconds)):
                    totals[side][i] += value
        if totals["before"][:2] != totals["after"][:2]:
            print(f"DIFFERENT GAMES: {totals['before'][:2]} vs {totals['after'][:2]}")
        rate = {side: totals[side][0] / totals[side][2] for side in sides}
        print(
            f"`--base {args.base}`, {args.games} random 12-round games per side, CPU time, "
            f"load average {load:.1f} at start, {os.getloadavg()[0]:.1f} at end: "
            f"before {rate['before']:,.0f} rounds/s "
            f"({totals['before'][1] / totals['before'][2]:,.0f} actions/s), "
            f"after {rate['after']:,.0f} rounds/s "
            f"({totals['after'][1] / totals['after'][2]:,.0f} actions/s), "
            f"after/before {rate['after'] / rate['before']:.2f}"
        )


if __name__ == "__main__":
    main()
