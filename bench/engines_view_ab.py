"""Every engine before / after a change, views included: an older commit against the working
tree, interleaved game by game (``bench/engines_ab.py``'s method, for all five engines).

    .venv/bin/python bench/engines_view_ab.py --base af88bd5 --games 20

Each side plays the same seeded random games (2 players, random legal actions); at every step
it builds the view of every seat and of a spectator, then applies the action. CPU seconds are
summed separately for ``view`` and for ``to_act`` + ``legal_actions`` + ``apply`` (the figure
``bench/engines.py`` reports as actions/s). Both sides must produce the same views and the
same final state (a JSON hash): a difference means the change altered what players see, and
the script says so. Prints one JSON object per engine: after / before ratios of CPU time
(< 1: faster), and whether the games were identical.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from engines_ab import extract, load_engines

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["kazoku-families", "kazoku-words", "bozu", "yokai", "koikoi"]


def one_game(engine, seed: int) -> tuple[float, float, str]:
    """(CPU seconds in views, CPU seconds in to_act/legal/apply, hash of views and end)."""
    clock = time.process_time
    digest = hashlib.sha256()
    rng = random.Random(seed)
    players = engine.MIN_PLAYERS
    state = engine.new_game(players=players, seed=seed)
    viewing = playing = 0.0
    for _step in range(3000):
        if engine.is_over(state):
            break
        t0 = clock()
        views = [engine.view(state, seat) for seat in (*range(players), None)]
        t1 = clock()
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        t2 = clock()
        action = rng.choice([a for a in legal if a.get("type") != "declare"] or legal)
        t3 = clock()
        state, _events = engine.apply(state, seat, action)
        t4 = clock()
        viewing += t1 - t0
        playing += (t2 - t1) + (t4 - t3)
        digest.update(json.dumps(views, sort_keys=True).encode())
    digest.update(json.dumps(engine.to_json(state), sort_keys=True).encode())
    return viewing, playing, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--games", type=int, default=20, help="games per engine and side")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        extract(args.base, Path(tmp))
        base = load_engines(Path(tmp), NAMES)
        work = load_engines(ROOT, NAMES)
        all_same = True
        for name in NAMES:
            totals = {"base": [0.0, 0.0], "work": [0.0, 0.0]}
            same = True
            for game in range(args.games):
                order = [("base", base), ("work", work)]
                if game % 2:
                    order.reverse()
                hashes = {}
                for side, engines in order:
                    viewing, playing, hashes[side] = one_game(engines[name][0], args.seed + game)
                    totals[side][0] += viewing
                    totals[side][1] += playing
                same &= hashes["base"] == hashes["work"]
            all_same &= same
            print(
                json.dumps(
                    {
                        "engine": name,
                        "games": args.games,
                        "view_after_over_before": round(totals["work"][0] / totals["base"][0], 3),
                        "play_after_over_before": round(totals["work"][1] / totals["base"][1], 3),
                        "cpu_s": {side: [round(t, 2) for t in v] for side, v in totals.items()},
                        "same_games": same,
                    }
                ),
                flush=True,
            )
    if not all_same:
        sys.exit(1)


if __name__ == "__main__":
    main()
