"""Kazoku word game (`kazoku-words`): speed, bot strength, bot decision time, game endings.

    .venv/bin/python bench/engines_words.py                 # everything, markdown on stdout
    .venv/bin/python bench/engines_words.py --only speed    # or: bots, timing, endings
    .venv/bin/python bench/engines_words.py --write         # also update docs/bench.md

Speed (seeded, one process, CPU time): an *engine action* is ``to_act`` + ``legal_actions`` for
the acting seat + ``apply``. "random" picks uniformly among the legal actions (as
``bench/engines.py`` does); "easy bots" plays the easy bot, which needs ``view`` too: the
table gives the engine-only rate (time inside ``to_act``/``legal_actions``/``apply``) and the
full loop rate (engine + ``view`` + ``Bot.choose``).

Bots: hard, normal and easy at one table of 3, seats rotated, seeded; plus head-to-head
pairs. Timing: each level's ``choose`` on states from 4-player games with 5 table cards (where
steals and table words abound). Endings: random-action games over every option set, counting
how each ended (target, pile empty, round limit).

``--write`` replaces the block between ``<!-- bench:kazoku-words -->`` and
``<!-- /bench:kazoku-words -->`` in docs/bench.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engines import get_engine  # noqa: E402
from games.engines.kazoku.words import turn_limit  # noqa: E402

ENG = get_engine("kazoku-words")

OPTION_SETS = [
    ("default (target 15)", {}),
    ("table_cards=5", {"table_cards": 5}),
    ("end=pile_empty", {"end": "pile_empty"}),
    ("decks=2, hand_size=8, target 25", {"decks": 2, "hand_size": 8, "target_points": 25}),
    ("decks=3, table 5, pile_empty, mixed", {"decks": 3, "table_cards": 5, "end": "pile_empty",
                                             "script": "mixed"}),
]  # fmt: skip


def play(players: int, seed: int, options: dict, level: str | None) -> tuple[int, float, float]:
    """One game; returns (actions, engine seconds, total seconds). ``level=None``: random."""
    rng = random.Random(seed)
    bot = ENG.bot(level) if level else None
    engine_s = total_s = 0.0
    clock = time.process_time
    state = ENG.new_game(players=players, seed=seed, options=options)
    actions = 0
    while not ENG.is_over(state):
        t0 = clock()
        seat = ENG.to_act(state)[0]
        legal = ENG.legal_actions(state, seat)
        t1 = clock()
        action = bot.choose(ENG.view(state, seat), legal, rng) if bot else rng.choice(legal)
        t2 = clock()
        state, _events = ENG.apply(state, seat, action)
        t3 = clock()
        engine_s += (t1 - t0) + (t3 - t2)
        total_s += t3 - t0
        actions += 1
    return actions, engine_s, total_s


def speed(games: int, seed: int) -> str:
    lines = [
        "| options | players | driver | games | actions/game | engine actions/s "
        "| full loop actions/s | games/s |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, options in OPTION_SETS:
        for players in (2, 4, 6):
            for driver in ("random", "easy"):
                runs = [
                    play(players, seed + g, options, None if driver == "random" else "easy")
                    for g in range(games)
                ]
                actions = sum(r[0] for r in runs)
                engine_s = sum(r[1] for r in runs)
                total_s = sum(r[2] for r in runs)
                lines.append(
                    f"| {label} | {players} | {driver} | {games} | {actions / games:.0f} "
                    f"| {actions / engine_s:,.0f} | {actions / total_s:,.0f} "
                    f"| {games / total_s:,.1f} |"
                )
                print(lines[-1], file=sys.stderr)
    return "\n".join(lines)


def interleaved(games: int, seed: int) -> str:
    """kazoku-words and kazoku-families through the contract, and the bare mutable loop of
    ``bench/engines.py``, game by game alternately (4 players, random actions), so all three see
    the same machine load: the ratios are the load-independent figures."""
    sys.path.insert(0, str(ROOT / "bench"))
    from engines import bare_kana_game  # noqa: PLC0415 - bench/engines.py, a script

    families = get_engine("kazoku-families")
    totals = {"kazoku-words": [0, 0.0], "kazoku-families (kana)": [0, 0.0], "bare loop": [0, 0.0]}
    for g in range(games):
        for name in totals:
            started = time.process_time()
            if name == "kazoku-words":
                actions = _random_game(ENG, 4, seed + g, {})
            elif name == "bare loop":
                actions = bare_kana_game(4, seed + g)
            else:
                actions = _random_game(families, 4, seed + g, {"variant": "kana"})
            totals[name][0] += actions
            totals[name][1] += time.process_time() - started
    bare = totals["bare loop"][0] / totals["bare loop"][1]
    lines = [
        "| loop (4 players, random actions) | actions/s | × bare loop |",
        "| --- | ---: | ---: |",
    ]
    for name, (actions, seconds) in totals.items():
        rate = actions / seconds
        lines.append(f"| {name} | {rate:,.0f} | {rate / bare:.2f} |")
    return "\n".join(lines)


def _random_game(engine, players: int, seed: int, options: dict) -> int:
    rng = random.Random(seed)
    state = engine.new_game(players=players, seed=seed, options=options)
    actions = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        actions += 1
    return actions


def match(players_bots: tuple[str, ...], games: int, seed: int, options: dict) -> tuple:
    """Win share of each level (ties split) over ``games`` games, seats rotated; also how
    many games the round limit ended."""
    wins: Counter = Counter()
    ended: Counter = Counter()
    seats = len(players_bots)
    per_rotation = games // seats
    for shift in range(seats):
        order = players_bots[shift:] + players_bots[:shift]
        bots = [ENG.bot(level) for level in order]
        for g in range(per_rotation):
            game_seed = seed + shift * 100_000 + g
            rng = random.Random(game_seed)
            state = ENG.new_game(players=seats, seed=game_seed, options=options)
            while not ENG.is_over(state):
                seat = ENG.to_act(state)[0]
                legal = ENG.legal_actions(state, seat)
                action = bots[seat].choose(ENG.view(state, seat), legal, rng)
                state, _ = ENG.apply(state, seat, action)
            ended[state.ended_by] += 1
            ranks = ENG.outcome(state)["ranks"]
            winners = [s for s, rank in enumerate(ranks) if rank == 1]
            for s in winners:
                wins[order[s]] += 1 / len(winners)
    total = per_rotation * seats
    shares = {level: wins[level] / total for level in dict.fromkeys(players_bots)}
    return shares, total, ended["max_rounds"]


def bots(games: int, seed: int) -> str:
    lines = [
        "| options | seats | games | win share (ties split) | ended by the round limit |",
        "| --- | --- | ---: | --- | ---: |",
    ]
    matches = [
        ({}, ("hard", "normal", "easy")),
        ({"table_cards": 4}, ("hard", "normal", "easy")),
        ({"end": "pile_empty"}, ("hard", "normal", "easy")),
        ({}, ("hard", "normal")),
        ({}, ("normal", "easy")),
    ]
    for options, seats in matches:
        shares, total, limited = match(seats, games, seed, options)
        text = ", ".join(f"{level} {share:.1%}" for level, share in shares.items())
        lines.append(
            f"| {options or 'default'} | {', '.join(seats)} | {total} | {text} | {limited} |"
        )
        print(lines[-1], file=sys.stderr)
    return "\n".join(lines)


def timing(decisions: int, seed: int) -> str:
    lines = [
        "| bot | decisions | with steals available | choose: median ms | p95 ms | max ms "
        "| legal_actions + view + choose: p95 ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    options = {"table_cards": 5}
    for level in ("easy", "normal", "hard"):
        bot, rng, times, stealing = ENG.bot(level), random.Random(seed), [], 0
        whole = []
        game = 0
        drivers = [ENG.bot("hard"), ENG.bot("normal"), ENG.bot(level), ENG.bot("easy")]
        while len(times) < decisions:
            state = ENG.new_game(players=4, seed=seed + game, options=options)
            game += 1
            while not ENG.is_over(state) and len(times) < decisions:
                seat = ENG.to_act(state)[0]
                fresh = ENG.from_json(ENG.to_json(state))  # as a worker gets it: no memo
                begun = time.perf_counter()
                legal = ENG.legal_actions(fresh, seat)
                view = ENG.view(fresh, seat)
                if seat == 2:
                    stealing += any(a["type"] == "form" and a["steal"] for a in legal)
                    started = time.perf_counter()
                    action = bot.choose(view, legal, rng)
                    ended = time.perf_counter()
                    times.append((ended - started) * 1000)
                    whole.append((ended - begun) * 1000)
                else:
                    action = drivers[seat].choose(view, legal, rng)
                state, _ = ENG.apply(state, seat, action)
        times.sort()
        whole.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        lines.append(
            f"| {level} | {len(times)} | {stealing} | {statistics.median(times):.3f} "
            f"| {p95:.3f} | {times[-1]:.3f} | {whole[int(0.95 * (len(whole) - 1))]:.3f} |"
        )
    return "\n".join(lines)


def endings(games: int, seed: int) -> str:
    lines = [
        "| options | games | players | ended by target / pile empty / round limit "
        "| max turns (limit) |",
        "| --- | ---: | --- | --- | --- |",
    ]
    for label, options in [*OPTION_SETS, ("max_rounds=10", {"max_rounds": 10})]:
        ended, max_turns, limit = Counter(), 0, 0
        for g in range(games):
            players = 2 + g % 5
            rng = random.Random(seed + g)
            state = ENG.new_game(players=players, seed=seed + g, options=options)
            while not ENG.is_over(state):
                seat = ENG.to_act(state)[0]
                state, _ = ENG.apply(state, seat, rng.choice(ENG.legal_actions(state, seat)))
            ended[state.ended_by] += 1
            if state.turns > max_turns:
                max_turns, limit = state.turns, turn_limit(state)
        lines.append(
            f"| {label} | {games} | 2-6 | {ended['target']} / {ended['pile_empty']} / "
            f"{ended['max_rounds']} | {max_turns} ({limit}) |"
        )
        print(lines[-1], file=sys.stderr)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("speed", "ratio", "bots", "timing", "endings"))
    parser.add_argument("--games", type=int, default=40, help="games per speed row")
    parser.add_argument("--bot-games", type=int, default=2001, help="games per bot match")
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--ending-games", type=int, default=2000, help="games per option set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    header = f"Python {platform.python_version()} on {platform.machine()}, seed {args.seed}"
    parts = []
    if args.only in (None, "speed"):
        parts.append(f"Speed (`--games {args.games}` per row):\n\n{speed(args.games, args.seed)}")
    if args.only in (None, "ratio"):
        parts.append(
            f"Interleaved (`--games {args.games}`):\n\n{interleaved(args.games, args.seed)}"
        )
    if args.only in (None, "bots"):
        parts.append(f"Bot strength:\n\n{bots(args.bot_games, args.seed)}")
    if args.only in (None, "timing"):
        parts.append(f"Bot decision time:\n\n{timing(args.decisions, args.seed)}")
    if args.only in (None, "endings"):
        parts.append(f"Endings:\n\n{endings(args.ending_games, args.seed)}")
    text = f"{header}.\n\n" + "\n\n".join(parts)
    print(text)
    if args.write:
        sys.path.insert(0, str(ROOT / "bench"))
        from engines import write_block  # noqa: PLC0415 - bench/engines.py, a script

        write_block("kazoku-words", text)


if __name__ == "__main__":
    main()
