"""What the learning hook costs a move: ``play_observed`` timed on a scratch database.

    .venv/bin/python bench/learning_writes.py [--moves 2000] [--kana 3] [--prompts new]

Creates a throw-away SQLite database (or uses DATABASE_URL's server with a test database),
one learner, and calls ``play_observed`` the way the games service does after a move: a few
kana newly shown, one of them entering the hand. Prints one JSON object: moves, statements
per call, and milliseconds per call (median and 95th percentile).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--kana", type=int, default=3, help="kana newly shown per move")
    parser.add_argument("--prompts", default="new", choices=("off", "new", "every"))
    args = parser.parse_args(argv)

    scratch = tempfile.mkdtemp(prefix="kanagame-bench-")
    os.environ.setdefault("SQLITE_PATH", str(Path(scratch) / "bench.sqlite3"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from kanagame.accounts.services import user_create
    from learning import kana_table
    from learning.services.play import play_observed

    call_command("migrate", verbosity=0)
    learner = user_create(username="bench", password="kana-bench-2026", role="self")
    learner = type(learner).objects.select_related("profile").get(pk=learner.pk)
    kana = kana_table.kana_ids("hiragana", basic_only=True)
    start = datetime(2026, 3, 1, tzinfo=UTC)
    load = os.getloadavg()[0]
    timings, statements = [], []

    def observe(move: int) -> None:
        shown = [(kana[(move * 7 + i) % len(kana)], "hiragana") for i in range(args.kana)]
        play_observed(
            user=learner,
            table_id=1,
            move_id=move + 1,
            shown=shown,
            entered_hand=shown[:1],
            prompt_mode=args.prompts,
            at=start + timedelta(seconds=10 * move),
        )

    for move in range(args.moves):  # timed without query capture (it has its own cost)
        began = time.perf_counter()
        observe(move)
        timings.append((time.perf_counter() - began) * 1000)
    for move in range(args.moves, args.moves + 200):  # then count statements on 200 more
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            observe(move)
        statements.append(len(queries))
    timings.sort()
    result = {
        "database": connection.vendor,
        "load_average": round(load, 1),
        "moves": args.moves,
        "kana_per_move": args.kana,
        "prompts": args.prompts,
        "statements_median": statistics.median(statements),
        "statements_min": min(statements),
        "statements_max": max(statements),
        "ms_median": round(statistics.median(timings), 3),
        "ms_p95": round(timings[int(0.95 * len(timings)) - 1], 3),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
