"""Engine speed before / after a change: an older commit against the working tree, interleaved.

    .venv/bin/python bench/engines_ab.py --base 63640b1                          # both engines
    .venv/bin/python bench/engines_ab.py --base 63640b1 --engine kazoku-words --games 100
    .venv/bin/python bench/engines_ab.py --base 63640b1 --same-games             # no timing

The ``games/engines`` package (and the deck fixture) of ``--base`` is extracted with
``git archive`` into a temporary directory and imported next to the working tree's under the
same name (each copy keeps its own modules). Both then play the same seeded 4-player games,
**alternately game by game** and in alternating order, so that they see the same machine load:
on the shared 2-core machine absolute rates swing by ±40 % from one minute to the next, while
the ratio after / before is stable. Rows: kazoku-families (kana, random actions, as
``bench/engines.py``) and kazoku-words (easy bots, engine time only, as
``bench/engines_words.py``). The games played must be the same (same action counts): a
difference means the change altered the rules, and the script says so.

``--same-games`` checks that more closely instead of timing: both sides play the same seeded
games (random actions over every variant / option set and 2-6 players, and 3-player bot games
mixing easy, normal and hard) and the script compares a hash of every legal-action list, every
event list, the final ``to_json`` and the outcome.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = {
    "kazoku-families": ({"variant": "kana"}, None),
    "kazoku-words": ({}, "easy"),
}


def load_engines(path: Path, names: list[str]) -> dict:
    """Import ``games.engines`` from ``path`` and return its engines (fresh modules)."""
    for module in [m for m in sys.modules if m == "games" or m.startswith("games.")]:
        del sys.modules[module]
    sys.path.insert(0, str(path))
    try:
        package = importlib.import_module("games.engines")
        engines = {}
        for name in names:
            engine = package.get_engine(name)
            # bots built now: ``bot()`` imports its module lazily, from this copy only now
            bots = {level: engine.bot(level) for level in LEVELS}
            engines[name] = (engine, bots)
        return engines
    finally:
        sys.path.remove(str(path))


def extract(commit: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", commit, "games/__init__.py", "games/engines", "fixtures"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    archive_path = into / "tree.tar"
    archive_path.write_bytes(archive)
    with tarfile.open(archive_path) as tar:
        tar.extractall(into, filter="data")


def play(engine, bot, seed: int, options: dict) -> tuple[int, float]:
    """One 4-player game; returns (actions, CPU seconds inside to_act/legal_actions/apply)."""
    clock = time.process_time
    rng = random.Random(seed)
    state = engine.new_game(players=4, seed=seed, options=options)
    actions, seconds = 0, 0.0
    while not engine.is_over(state):
        t0 = clock()
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        t1 = clock()
        action = bot.choose(engine.view(state, seat), legal, rng) if bot else rng.choice(legal)
        t2 = clock()
        state, _events = engine.apply(state, seat, action)
        seconds += (t1 - t0) + (clock() - t2)
        actions += 1
    return actions, seconds


LEVELS = ("easy", "normal", "hard")
FINGERPRINT_OPTIONS = {
    "kazoku-families": [
        {"variant": variant, "lay": lay, "end": end}
        for variant in ("themed", "kana", "gojuon")
        for lay in ("choice", "immediate")
        for end in ("all_families", "pile_empty")
    ],
    "kazoku-words": [
        {},
        {"table_cards": 5},
        {"end": "pile_empty"},
        {"decks": 2, "hand_size": 8, "target_points": 25},
        {"decks": 3, "table_cards": 5, "end": "pile_empty", "script": "mixed"},
        {"replay_on_give": True, "table_cards": 3},
    ],
}


def fingerprint(engine, bots: dict, games: int, seed: int, name: str) -> str:
    """Hash of everything observable in seeded games: legal actions, events, final state."""
    digest = hashlib.sha256()

    def feed(value) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    for g in range(games):
        for options in FINGERPRINT_OPTIONS[name]:
            runs = [(2 + g % 5, None)]
            if options == FINGERPRINT_OPTIONS[name][0]:
                runs.append((3, [bots[LEVELS[(g + s) % 3]] for s in range(3)]))
            for players, seat_bots in runs:
                rng = random.Random(seed + g)
                state = engine.new_game(players=players, seed=seed + g, options=options)
                while not engine.is_over(state):
                    seat = engine.to_act(state)[0]
                    legal = engine.legal_actions(state, seat)
                    feed(legal)
                    if seat_bots:
                        action = seat_bots[seat].choose(engine.view(state, seat), legal, rng)
                    else:
                        action = rng.choice(legal)
                    state, events = engine.apply(state, seat, action)
                    feed(events)
                feed(engine.to_json(state))
                feed(engine.outcome(state))
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--engine", choices=sorted(CASES), help="only this engine")
    parser.add_argument("--games", type=int, default=200, help="games per engine and side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--same-games", action="store_true", help="compare games, no timing")
    args = parser.parse_args()
    names = [args.engine] if args.engine else list(CASES)
    # kept until the end: engines load their data files (the deck) lazily, from their own copy
    with tempfile.TemporaryDirectory() as tmp:
        extract(args.base, Path(tmp))
        sides = {"before": load_engines(Path(tmp), names), "after": load_engines(ROOT, names)}
        compare(args, names, sides)


def compare(args: argparse.Namespace, names: list[str], sides: dict) -> None:
    if args.same_games:
        games = min(args.games, 60)
        for name in names:
            hashes = {
                side: fingerprint(*sides[side][name], games, args.seed, name) for side in sides
            }
            verdict = "same games" if len(set(hashes.values())) == 1 else "DIFFERENT GAMES"
            print(
                f"{name}: {games} seeds x {len(FINGERPRINT_OPTIONS[name])} option sets: "
                f"before {hashes['before']}, after {hashes['after']}: {verdict}"
            )
        return
    print(f"`--base {args.base}`, load average {os.getloadavg()[0]:.1f} at start, 4 players\n")
    print(
        "| engine (driver) | games | actions | before actions/s | after actions/s | after/before |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        options, level = CASES[name]
        totals = {side: [0, 0.0] for side in sides}
        for g in range(args.games):
            order = list(sides) if g % 2 else list(reversed(sides))
            for side in order:
                engine, bots = sides[side][name]
                bot = bots[level] if level else None
                actions, seconds = play(engine, bot, args.seed + g, options)
                totals[side][0] += actions
                totals[side][1] += seconds
        if totals["before"][0] != totals["after"][0]:
            print(
                f"{name}: DIFFERENT GAMES ({totals['before'][0]} vs {totals['after'][0]} actions)"
            )
        before, after = (totals[s][0] / totals[s][1] for s in ("before", "after"))
        print(
            f"| {name} ({level or 'random'}) | {args.games} | {totals['after'][0]:,} "
            f"| {before:,.0f} | {after:,.0f} | {after / before:.2f} |"
        )


if __name__ == "__main__":
    main()
