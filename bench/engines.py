"""Engine speed through the contract: actions/s and complete games/s, seeded, one process.

    .venv/bin/python bench/engines.py                  # every case, prints a markdown table
    .venv/bin/python bench/engines.py --engine kazoku-families --games 200
    .venv/bin/python bench/engines.py --write          # also updates docs/bench.md
    .venv/bin/python bench/engines.py --bots           # + bot win rates and decision times

An action = ``to_act`` + ``legal_actions`` for the acting seat + a random choice among them
(what the ``easy`` bot does, without building a view) + ``apply``. No Django needed.

To add an engine: append its cases to ``CASES`` (and, for bot figures, to ``BOT_MATCHES``).
``--write`` replaces, in docs/bench.md, the block between
``<!-- bench:<engine>:speed -->`` and ``<!-- /bench:<engine>:speed -->``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engines import get_engine  # noqa: E402
from games.engines.conformance import playout  # noqa: E402
from games.engines.kazoku.deck import load_deck  # noqa: E402
from games.engines.kazoku.families import rules_for  # noqa: E402


@dataclass(frozen=True)
class Case:
    engine: str
    label: str
    options: dict = field(default_factory=dict)
    players: tuple[int, ...] = (2, 4, 6)
    avoid: tuple[str, ...] = ()  # action types the random player skips while it has others


CASES = [
    Case("kazoku-families", "themed", {"variant": "themed"}),
    Case("kazoku-families", "kana", {"variant": "kana"}),
    Case("kazoku-families", "gojuon", {"variant": "gojuon"}),
    # kazoku-words: more figures (easy-bot loops, bots, endings) in bench/engines_words.py
    Case("kazoku-words", "target 15", {}),
    Case("kazoku-words", "table_cards=5", {"table_cards": 5}),
    Case("kazoku-words", "end=pile_empty", {"end": "pile_empty"}),
    Case("bozu", "defaults", {}),
    Case("bozu", "extra draws", {"lady": "take_pile_draw", "semimaru": "skip"}),
    Case("bozu", "no stopping", {"allow_stop": False, "emperor": "take_hands"}),
    # yokai: random actions but never "declare" (else most games end at once): whole games
    Case("yokai", "level 1", {"level": 1}, (2, 3, 4), ("declare",)),
    Case("yokai", "level 3", {"level": 3}, (2, 3, 4), ("declare",)),
    Case("yokai", "level 5", {"level": 5}, (2, 3, 4), ("declare",)),
    # koikoi: games/s x rounds = rounds/s; bots and rounds/s in bench/engines_koikoi.py
    Case("koikoi", "12 rounds", {}, players=(2,)),
    Case("koikoi", "rounds=3", {"rounds": "3"}, players=(2,)),
]

# Yokai, a cooperative game: win rate of an all-CPU team per level and player count, beside a
# team playing at random (``--teams``).
YOKAI_TEAMS = ("hard", "random")

# (engine, options, seat bots, games) played with seat rotation, for win rates.
BOT_MATCHES = [
    ("kazoku-families", {"variant": "kana"}, ("hard", "normal", "easy"), 2100),
    ("kazoku-families", {"variant": "kana"}, ("hard", "normal", "normal"), 2100),
    ("kazoku-families", {"variant": "kana"}, ("normal", "easy", "easy"), 2100),
    ("kazoku-families", {"variant": "kana"}, ("hard", "easy", "easy"), 2100),
    ("kazoku-families", {"variant": "themed"}, ("hard", "normal", "easy"), 600),
    ("kazoku-families", {"variant": "gojuon"}, ("hard", "normal", "easy"), 600),
]


def random_game(engine, players: int, seed: int, options: dict, avoid: tuple = ()) -> int:
    """Play one game with random legal actions (types in ``avoid`` only when nothing else is
    legal); return the number of actions."""
    rng = random.Random(seed)
    state = engine.new_game(players=players, seed=seed, options=options)
    actions = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        action = rng.choice([a for a in legal if a["type"] not in avoid] or legal)
        state, _events = engine.apply(state, seat, action)
        actions += 1
    return actions


def bare_kana_game(players: int, seed: int) -> int:
    """The baseline: these rules as a bare mutable loop (kana families, random asks, no
    contract, no immutability, no checks, no events). Returns the number of actions.

    Hands are insertion-ordered dicts used as sets, so that the game is the same in every
    process (set order depends on string hashing).
    """
    rng = random.Random(seed)
    rules = rules_for("kana")
    deck = list(load_deck().ids)
    rng.shuffle(deck)
    hands = [dict.fromkeys(deck[p * 5 : p * 5 + 5]) for p in range(players)]
    pile = deck[players * 5 :]
    laid, seat, actions = 0, 0, 0
    while laid < rules.family_count:
        hand = hands[seat]
        if not hand:
            if pile:
                hand[pile.pop()] = None
            else:
                seat = (seat + 1) % players
                continue
        asks = [
            (target, card)
            for family in dict.fromkeys(rules.family_of[c] for c in hand)
            for card in rules.members[family]
            if card not in hand
            for target in range(players)
            if target != seat
        ]
        actions += 1
        again = False
        if asks:
            target, card = rng.choice(asks)
            if card in hands[target]:
                del hands[target][card]
                hand[card] = None
                again = True
            elif pile:
                drawn = pile.pop()
                hand[drawn] = None
                again = drawn == card
        if not again:
            for family in dict.fromkeys(rules.family_of[c] for c in hand):
                if rules.member_sets[family] <= hand.keys():
                    for card in rules.members[family]:
                        del hand[card]
                    laid += 1
            seat = (seat + 1) % players
    return actions


def measure_against_bare(players: int, games: int, seed: int) -> tuple[dict, dict]:
    """Kana families through the contract and the bare loop, game by game alternately, so
    both see the same machine load (the ratio is the load-independent figure)."""
    engine = get_engine("kazoku-families")
    totals = {"engine": [0, 0.0], "bare": [0, 0.0]}
    for g in range(games):
        started = time.process_time()
        totals["engine"][0] += random_game(engine, players, seed + g, {"variant": "kana"})
        middle = time.process_time()
        totals["bare"][0] += bare_kana_game(players, seed + g)
        totals["engine"][1] += middle - started
        totals["bare"][1] += time.process_time() - middle
    rows = []
    for name, label in (("engine", "kana, interleaved"), ("bare", "kana, bare mutable loop")):
        actions, seconds = totals[name]
        rows.append(
            {
                "case": label,
                "players": players,
                "games": games,
                "actions_per_game": actions / games,
                "actions_per_s": actions / seconds,
                "games_per_s": games / seconds,
            }
        )
    return rows[0], rows[1]


def measure(case: Case, players: int, games: int, seed: int) -> dict:
    engine = get_engine(case.engine)
    started = time.process_time()  # CPU time: the shared 2-core machine is often busy
    actions = sum(
        random_game(engine, players, seed + g, case.options, case.avoid) for g in range(games)
    )
    seconds = time.process_time() - started
    return {
        "engine": case.engine,
        "case": case.label,
        "players": players,
        "games": games,
        "actions": actions,
        "actions_per_game": actions / games,
        "actions_per_s": actions / seconds,
        "games_per_s": games / seconds,
    }


def speed_table(rows: list[dict]) -> str:
    lines = [
        "| case | players | games | actions/game | actions/s | games/s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['players']} | {r['games']} | {r['actions_per_game']:.0f} "
            f"| {r['actions_per_s']:,.0f} | {r['games_per_s']:,.1f} |"
        )
    return "\n".join(lines)


def bot_matches(seed: int, engine_name: str | None, scale: float = 1.0) -> str:
    """Win shares per bot level (ties split), rotating seats; ``scale`` x the listed games."""
    lines = [
        "| options | seats | games | win share per seat level (ties split) |",
        "| --- | --- | ---: | --- |",
    ]
    for name, options, bots, games in BOT_MATCHES:
        if engine_name and name != engine_name:
            continue
        games = max(len(bots), int(games * scale))
        engine = get_engine(name)
        wins: dict[str, float] = {level: 0.0 for level in bots}
        seats = len(bots)
        per_rotation = games // seats
        for shift in range(seats):
            order = bots[shift:] + bots[:shift]
            for g in range(per_rotation):
                game_seed = seed + shift * 100_000 + g
                summary = playout(
                    engine, players=seats, games=1, seed=game_seed, options=options,
                    bots=order, check=False,
                )  # fmt: skip
                winners = [s for s, count in enumerate(summary["wins_by_seat"]) if count]
                for s in winners:
                    wins[order[s]] += 1 / len(winners)
        total = per_rotation * seats
        shares = ", ".join(
            f"{level} {wins[level] / total / bots.count(level):.1%}"
            for level in dict.fromkeys(bots)
        )
        lines.append(f"| {options} | {', '.join(bots)} | {total} | {shares} (per seat) |")
    return "\n".join(lines)


def bot_timing(decisions: int, seed: int) -> str:
    """Decision time of each Kazoku bot level over states from seeded 3/6-player games."""
    engine = get_engine("kazoku-families")
    lines = [
        "| bot | players | decisions | median ms | p95 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for players in (3, 6):
        for level in ("easy", "normal", "hard"):
            bot, rng, times = engine.bot(level), random.Random(seed), []
            game = 0
            while len(times) < decisions:
                state = engine.new_game(players, seed + game, {"variant": "gojuon"})
                game += 1
                while not engine.is_over(state) and len(times) < decisions:
                    seat = engine.to_act(state)[0]
                    legal = engine.legal_actions(state, seat)
                    started = time.perf_counter()
                    action = bot.choose(engine.view(state, seat), legal, rng)
                    times.append((time.perf_counter() - started) * 1000)
                    state, _ = engine.apply(state, seat, action)
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            lines.append(
                f"| {level} | {players} | {len(times)} | {statistics.median(times):.2f} "
                f"| {p95:.2f} | {times[-1]:.2f} |"
            )
    return "\n".join(lines)


def yokai_outcomes(level: int, players: int, team: str, games: int, seed: int):
    """The outcome of each of ``games`` games of a team of ``team`` bots (game ``g`` uses seed
    ``seed + g``). The loop of ``conformance.play_game`` without its checks (same seeds, same
    choices), and without building a view for the random team, which never reads it."""
    engine = get_engine("yokai")
    bot = engine.bot(team)
    for g in range(games):
        rng = random.Random(seed + g)
        state = engine.new_game(players=players, seed=seed + g, options={"level": level})
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            view = {} if team == "random" else engine.bot_view(state, seat)
            state, _events = engine.apply(state, seat, bot.choose(view, legal, rng))
        yield engine.outcome(state)


def _yokai_row(task: tuple[int, int, str, int, int]) -> tuple[int, int]:
    """(wins, games ending with every family grouped) of one team at one level and size."""
    wins = grouped = 0
    for outcome in yokai_outcomes(*task):
        wins += outcome["won"]
        grouped += outcome["families_ok"]
    return wins, grouped


def _yokai_task(task: tuple[int, int, str, int, int]) -> tuple[tuple, tuple[int, int]]:
    return task, _yokai_row(task)


def yokai_teams(games: int, seed: int, processes: int = 1) -> str:
    """Win rate of each Yokai team per level (1-5) and player count (2-4), seeded games; the
    rows are independent, so ``processes`` > 1 plays them in parallel (same figures)."""
    tasks = [
        (level, players, team, games, seed)
        for level in range(1, 6)
        for players in (2, 3, 4)
        for team in YOKAI_TEAMS
    ]
    tasks.sort(key=lambda task: (task[2] != "hard", -task[0], -task[1]))  # slowest first
    results = {}
    with multiprocessing.Pool(max(1, processes)) as pool:
        for task, result in pool.imap_unordered(_yokai_task, tasks):
            results[task] = result
            print(f"level {task[0]}, {task[1]} players, {task[2]} team: {result}", flush=True)
    lines = [
        "| level | players | games | "
        + " | ".join(f"{team} team wins" for team in YOKAI_TEAMS)
        + " | hard team: families grouped at the end |",
        "| ---: | ---: | ---: | " + " | ".join("---:" for _ in YOKAI_TEAMS) + " | ---: |",
    ]
    for level in range(1, 6):
        for players in (2, 3, 4):
            row = [results[(level, players, team, games, seed)] for team in YOKAI_TEAMS]
            rates = " | ".join(f"{wins / games:.1%}" for wins, _ in row)
            lines.append(f"| {level} | {players} | {games} | {rates} | {row[0][1] / games:.1%} |")
    return "\n".join(lines)


def write_block(marker: str, text: str) -> None:
    """Replace the block between ``<!-- bench:marker -->`` and ``<!-- /bench:marker -->`` in
    docs/bench.md (shared by the bench scripts)."""
    path = ROOT / "docs" / "bench.md"
    start, end = f"<!-- bench:{marker} -->", f"<!-- /bench:{marker} -->"
    content = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if start not in content:
        raise SystemExit(f"docs/bench.md has no {start} marker: add the section first")
    before, rest = content.split(start, 1)
    _, after = rest.split(end, 1)
    path.write_text(f"{before}{start}\n{text}\n{end}{after}", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", help="only this engine's cases")
    parser.add_argument("--games", type=int, default=100, help="games per case and count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", action="store_true", help="also measure bot strength/timing")
    parser.add_argument("--bot-scale", type=float, default=1.0, help="x the listed bot games")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed cases")
    parser.add_argument("--write", action="store_true", help="update docs/bench.md blocks")
    parser.add_argument("--processes", type=int, default=1, help="--teams in parallel")
    parser.add_argument(
        "--teams", type=int, default=0, metavar="GAMES",
        help="Yokai: win rates of the CPU and random teams, GAMES per level and player count",
    )  # fmt: skip
    args = parser.parse_args()
    header = (
        f"Python {platform.python_version()} on {platform.machine()}, seed {args.seed}, "
        f"load average {os.getloadavg()[0]:.1f} at start"
    )
    by_engine: dict[str, list[dict]] = {}
    for case in [] if args.no_speed else CASES:
        if args.engine and case.engine != args.engine:
            continue
        for players in case.players:
            row = measure(case, players, args.games, args.seed)
            by_engine.setdefault(case.engine, []).append(row)
            print(f"{case.engine} {case.label} {players}p: {row['actions_per_s']:,.0f} actions/s")
    if not args.no_speed and args.engine in (None, "kazoku-families"):
        ours, bare = measure_against_bare(4, args.games, args.seed)
        by_engine.setdefault("kazoku-families", []).extend([ours, bare])
        ratio = ours["actions_per_s"] / bare["actions_per_s"]
        print(f"kana 4p interleaved: {ours['actions_per_s']:,.0f} vs bare loop ")
        print(f"{bare['actions_per_s']:,.0f} actions/s: ratio {ratio:.2f} (target 0.25)")
    for engine, rows in by_engine.items():
        text = f"{header}, `--games {args.games}`:\n\n{speed_table(rows)}"
        print(f"\n## {engine}\n\n{text}\n")
        if args.write:
            write_block(f"{engine}:speed", text)
    if args.teams:
        started = time.perf_counter()
        text = yokai_teams(args.teams, args.seed, args.processes)
        minutes = (time.perf_counter() - started) / 60
        end_load = os.getloadavg()[0]
        text = f"{header}, {end_load:.1f} at the end ({minutes:.0f} min):\n\n{text}"
        print(text)
        if args.write:
            write_block("yokai:teams", text)
    if args.bots:
        text = bot_matches(args.seed, args.engine, args.bot_scale)
        timing = bot_timing(2000, args.seed)
        print(f"{text}\n\n{timing}")
        if args.write:
            write_block("kazoku-families:bots", f"{header}:\n\n{text}\n\n{timing}")


if __name__ == "__main__":
    main()
