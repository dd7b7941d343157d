"""Time per action request on the web, CPU replies included (ARCHITECTURE §3).

    .venv/bin/python bench/web_moves.py                       # 20 solo games, prints JSON
    .venv/bin/python bench/web_moves.py --games 50 --engine kazoku-words --htmx
    .venv/bin/python bench/web_moves.py --seed 1                # the same deals run after run

Plays N whole solo games (one human seat against CPU players) through the Django test client
on a fresh SQLite file (the embedded default, Celery eager): every human move is one POST
to the board, which applies the move, saves state + version + Move, runs the CPU players'
replies inline (eager mode) and the learning hook, then answers (a redirect, or with
``--htmx`` the new board partial). The timed figure is that POST, from request to response.
Reported: median, p95 and max per action request, plus the board GET that follows, and the
POST's CPU time (``time.process_time``: less sensitive to other processes on a shared machine
than the wall-clock figure). ``--seed N`` draws the tables' seeds from ``random.Random(N)``
(instead of ``secrets``), so two runs (two versions of the code) play the same deals.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(db_path: str) -> None:
    os.environ["SQLITE_PATH"] = db_path
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def play(args: argparse.Namespace) -> dict:
    from django.test import Client

    from kanagame.accounts.services import user_create

    if args.seed is not None:
        import random

        from games.services import tables

        seeds = random.Random(args.seed)

        class SeededSecrets:
            @staticmethod
            def randbits(bits: int) -> int:
                return seeds.getrandbits(bits)

        tables.secrets = SeededSecrets  # the bench only: table seeds become reproducible

    user = user_create(username="bench", password="bench-pass-2026", role="self")
    client = Client()
    client.force_login(user)
    headers = {"HTTP_HX_REQUEST": "true"} if args.htmx else {}
    load_before = os.getloadavg()[0]
    posts: list[float] = []
    post_cpu: list[float] = []
    gets: list[float] = []
    games = 0
    for game in range(args.games):
        data = {f"t-{k}": v for k, v in args.option}
        data.update({"t-timer": "0", "t-prompts": args.prompts, "t-romaji": "always"})
        for seat in range(1, args.players):
            data[f"t-seat_{seat}"] = args.bots
        for seat in range(args.players, 6):
            data[f"t-seat_{seat}"] = ""
        defaults = {
            "kazoku-families": {
                "t-variant": "kana",
                "t-script": "hiragana",
                "t-hand_size": "5",
                "t-start": "youngest",
                "t-first": "0",
                "t-end": "all_families",
                "t-lay": "choice",
            },
            "kazoku-words": {
                "t-hand_size": "6",
                "t-start": "youngest",
                "t-first": "0",
                "t-target_points": "15",
                "t-table_cards": "0",
                "t-end": "target",
                "t-decks": "1",
                "t-script": "hiragana",
                "t-max_rounds": "60",
            },
        }
        data = {**defaults.get(args.engine, {}), **data}
        response = client.post(f"/play/new/{args.engine}/", data)
        assert response.status_code == 302, response.content[:500]
        url = response["Location"]
        started = time.perf_counter()
        page = client.get(url).content.decode()
        gets.append(time.perf_counter() - started)
        for _move in range(2000):
            if "Game over." in page:
                games += 1
                break
            version = re.search(r'name="version" value="(\d+)"', page).group(1)
            token = re.search(r'name="token" value="([^"]+)"', page).group(1)
            actions = [html.unescape(a) for a in re.findall(r'name="action" value="([^"]+)"', page)]
            # forming a word first (the page posts opaque tokens: found by the button's class)
            forms = re.findall(r'name="action" value="([^"]+)" class="form-button"', page)
            action = (forms or actions)[(game + _move) % len(forms or actions)]
            started, cpu = time.perf_counter(), time.process_time()
            response = client.post(
                url, {"version": version, "token": token, "action": action}, **headers
            )
            posts.append(time.perf_counter() - started)
            post_cpu.append(time.process_time() - cpu)
            assert response.status_code in (200, 302), response.status_code
            started = time.perf_counter()
            page = client.get(url).content.decode()
            gets.append(time.perf_counter() - started)
    ms = 1000.0
    return {
        "engine": args.engine,
        "players": args.players,
        "bots": args.bots,
        "htmx": args.htmx,
        "seed": args.seed,
        "games": games,
        "action_requests": len(posts),
        "post_median_ms": round(statistics.median(posts) * ms, 2),
        "post_p95_ms": round(percentile(posts, 0.95) * ms, 2),
        "post_max_ms": round(max(posts) * ms, 2),
        "post_cpu_median_ms": round(statistics.median(post_cpu) * ms, 2),
        "post_cpu_p95_ms": round(percentile(post_cpu, 0.95) * ms, 2),
        "get_median_ms": round(statistics.median(gets) * ms, 2),
        "get_p95_ms": round(percentile(gets, 0.95) * ms, 2),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--engine", default="kazoku-families")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--prompts", default="new", choices=("off", "new", "every"))
    parser.add_argument("--htmx", action="store_true", help="POST as htmx (partial response)")
    parser.add_argument("--seed", type=int, default=None, help="reproducible table seeds")
    parser.add_argument("--option", nargs=2, action="append", default=[], metavar=("K", "V"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(os.path.join(folder, "bench.sqlite3"))
        print(json.dumps(play(args), indent=2))


if __name__ == "__main__":
    main()
