"""Instructions per request (a move, a board, a poll), counted by callgrind: a figure that a
shared machine's load does not move.

    .venv/bin/python bench/move_callgrind.py                       # a move
    .venv/bin/python bench/move_callgrind.py --kind board           # the poll that finds a change
    .venv/bin/python bench/move_callgrind.py --phase games.views.board:render   # one step

Each checkout counts its own code: to compare two, copy this file and ``move_profile.py`` into
the other one's ``bench/`` and run it there too.

Runs ``bench/move_profile.py --instrument KIND`` under ``valgrind --tool=callgrind
--collect-atstart=no --toggle-collect=sys_call_tracing``: ``move_profile`` sends each request
of that kind (or each call of ``--phase`` inside those requests) through
``sys.call_tracing``, a C function nothing else calls, so callgrind counts exactly those
instructions and none of the set-up, migrations or first requests. The deals are fixed (from
``--seed``), the secret key is fixed, hash randomisation is off and the server's GC is used
(``--server-gc``; its collections between requests are not counted), so two runs of one tree
agree to a fraction of a percent (docs/bench.md, "Counting instructions"). A migrated SQLite
file is kept between runs (``--db-cache``), so a run takes about a minute.

Limits: user-space instructions only (no kernel time: SQLite's writes, ``getrandom``), and an
instruction is not a fixed time; check a change in CPU milliseconds too (``move_profile.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECRET = "callgrind-fixed-secret-key-" + "k" * 40
SUMMARY_RE = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)


def instructions(out_file: Path) -> int:
    """The total of a callgrind output file (the ``summary:`` or ``totals:`` line)."""
    found = SUMMARY_RE.findall(out_file.read_text())
    if not found:
        raise SystemExit(f"no totals in {out_file}")
    return int(found[-1])


def _tag() -> str:
    """This checkout's own cache file: two checkouts may differ in their migrations."""
    return hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="move", choices=("move", "board", "poll"))
    parser.add_argument("--phase", default="", metavar="MODULE:FUNCTION")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    cache = os.path.join(tempfile.gettempdir(), f"kanagame-callgrind-{_tag()}.sqlite3")
    parser.add_argument(
        "--db-cache", default=cache, help="a migrated SQLite file reused between runs ('' for none)"
    )
    parser.add_argument("--keep", default="", help="copy callgrind's output file here")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    tree = ROOT
    with tempfile.TemporaryDirectory() as folder:
        out_file = Path(folder, "callgrind.out")
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            "--toggle-collect=sys_call_tracing", f"--callgrind-out-file={out_file}",
            sys.executable, str(ROOT / "bench" / "move_profile.py"), "--server-gc",
            "--instrument", args.kind, "--tables", str(args.tables),
            "--moves", str(args.moves), "--seed", str(args.seed),
        ]  # fmt: skip
        if args.phase:
            command += ["--instrument-phase", args.phase]
        env = dict(
            os.environ,
            PYTHONPATH=str(tree),
            PYTHONHASHSEED="0",
            BENCH_SECRET_KEY=SECRET,
            KANAGAME_BENCH_DB_CACHE=args.db_cache,
        )
        env.pop("DATABASE_URL", None)  # SQLite: the figure of one process, no server
        done = subprocess.run(
            command, env=env, cwd=tree, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            sys.stderr.write(done.stderr[-4000:])
            raise SystemExit(done.returncode)
        report = json.loads(done.stdout[done.stdout.index("{") :])
        total = instructions(out_file)
        if args.keep:
            shutil.copyfile(out_file, args.keep)
    requests = report[args.kind]["n"]
    print(
        json.dumps(
            {
                "kind": args.kind,
                "phase": args.phase or None,
                "requests": requests,
                "instructions": total,
                "per_request_M": round(total / requests / 1e6, 3),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
