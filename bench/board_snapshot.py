"""Record the HTML every presenter renders for a fixed set of seeded views (issue #23).

For each registered engine, each practice preset and player count, a seeded game is played
by random legal moves; at several steps the board of every seat and of a spectator is built
by the presenter (with and without legal actions), made opaque as the views do, and rendered
with its template, log and ranking, in English, French and Japanese and with each romaji mode
(and an open question hiding kana). One file per engine goes to the output folder; compare two
runs with ``diff -r``. Used to prove a presenter refactoring renders the same boards:

    .venv/bin/python bench/board_snapshot.py /tmp/boards-before
    ... refactor ...
    .venv/bin/python bench/board_snapshot.py /tmp/boards-after
    diff -r /tmp/boards-before /tmp/boards-after
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kanagame.settings")
# a database of its own (a finished board's result panels look the table up: none is found)
os.environ["SQLITE_PATH"] = os.environ.get("SNAPSHOT_SQLITE", "/tmp/board-snapshot.sqlite3")
os.environ.pop("DATABASE_URL", None)
django.setup()

from django.core.management import call_command  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.utils import translation  # noqa: E402

from games.boards import presenter_for  # noqa: E402
from games.boards.common import Player, Romaji  # noqa: E402
from games.engines import ENGINES, action_key, get_engine  # noqa: E402
from games.templatetags.games_cards import log_items  # noqa: E402
from games.tokens import opaque  # noqa: E402

LANGS = ("en", "fr", "ja")
TABLE_ID = 4242
SEEDS = (1, 2)
STEPS = (0, 1, 2, 4, 8, 16, 32, 64, 128)


class Info:
    url = "/play/t/SNAPSH/"
    version = 3
    code = "SNAPSH"
    is_finished = False
    is_open = False
    is_playing = True


def _romaji_modes(view) -> list:
    """Each romaji mode, plus "never" while a question hides the first kana of the view."""
    hidden = set()
    for value in (view.get("hand") or [])[:2]:
        hidden |= set(str(value))
    return ["always", "hover", "never", Romaji("never", frozenset("かきカキしシあア") | hidden)]


def _players(count: int, me: int | None) -> list[Player]:
    players = []
    for index in range(count):
        if index == 0:
            players.append(Player(index=0, name="Alice <b>", kind="human", is_me=me == 0))
        elif index == 1 and count > 2:
            players.append(
                Player(index=1, name="Léa", kind="human", is_me=me == 1, away=True, level="")
            )
        else:
            players.append(
                Player(index=index, name=f"CPU {index + 1}", kind="bot", is_me=me == index)
            )
    return players


def _render(engine: str, view, legal, count: int, me, romaji) -> str:
    presenter = presenter_for(engine)
    players = _players(count, me)
    board = presenter.build(view=view, legal=legal, players=players, me=me, romaji=romaji)
    board.data = opaque(board.data, table_id=TABLE_ID, keys={action_key(a) for a in legal})
    context = {"board": board, "info": Info(), "me": me, "token": "TOKEN", "away": False}
    html = render_to_string(board.template, context)
    rows = board.ranking
    return "\n".join(
        [
            f"template={board.template} me={board.me}",
            html,
            str(log_items(board.log)),
            repr([(r["rank"], r["score"], r["player"].index, r.get("note")) for r in rows]),
        ]
    )


def _games(engine: str):
    eng = get_engine(engine)
    presets = eng.practice_presets() or [{}]
    for options in presets:
        for count in range(eng.MIN_PLAYERS, min(eng.MAX_PLAYERS, 4) + 1):
            for seed in SEEDS:
                try:
                    state = eng.new_game(players=count, seed=seed, options=options)
                except ValueError:
                    continue
                yield options, count, seed, state


def _snapshots(engine: str, out):
    eng = get_engine(engine)
    renders = 0
    for options, count, seed, state in _games(engine):
        rng = random.Random(f"{engine}:{seed}:{count}")
        step = 0
        while True:
            over = eng.is_over(state)
            if step in STEPS or over:
                for me in [None, *range(count)]:
                    view = eng.view(state, me)
                    legal = eng.legal_actions(state, me) if me is not None else []
                    for n, romaji in enumerate(_romaji_modes(view)):
                        lang = LANGS[(step + n + (me or 0)) % len(LANGS)]
                        with translation.override(lang):
                            for actions in (legal, []) if legal else ([],):
                                hidden = sorted(getattr(romaji, "hidden", ()))
                                head = (
                                    f"## {options} players={count} seed={seed} step={step} "
                                    f"me={me} romaji={romaji}/{hidden} "
                                    f"lang={lang} actions={bool(actions)}"
                                )
                                out.write(head + "\n")
                                out.write(_render(engine, view, actions, count, me, romaji))
                                out.write("\n")
                                renders += 1
            if over or step >= STEPS[-1]:
                break
            seat = rng.choice(eng.to_act(state))
            action = rng.choice(eng.legal_actions(state, seat))
            state, _events = eng.apply(state, seat, action)
            step += 1
    return renders


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/board-snapshot")
    folder.mkdir(parents=True, exist_ok=True)
    call_command("migrate", verbosity=0)
    for engine in ENGINES:
        path = folder / f"{engine}.txt"
        with path.open("w", encoding="utf-8") as out:
            renders = _snapshots(engine, out)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        print(f"{engine}: {renders} boards, {path.stat().st_size} bytes, sha256 {digest}")


if __name__ == "__main__":
    main()
