"""The board partial and ``opaque`` of another tree against this one's, in one process (issue 28).

    git archive main | tar -x -C /tmp/main-tree
    .venv/bin/python bench/board_render_ab.py /tmp/main-tree [TABLES] [PASSES]

Plays TABLES solo Kazoku tables (``move_profile``'s requests: moves, then the poll that finds
the change) with this tree's code, keeping every board partial's context and every
``opaque`` call. Then, with the collector off, it renders each partial with the other tree's
templates and with this tree's, alternating which goes first, PASSES times; and runs the
other tree's ``games/tokens.py`` ``opaque`` against this one's on the same boards in order
(this tree's token cache emptied first, as in a fresh worker). A machine shared with other
work slows both sides of each pair alike, which runs of ``move_profile`` back to back do not
see. Only the templates and ``games/tokens.py`` come from the other tree: the template tags
and presenters are this tree's (its templates must load only tags this tree still has).
"""

import gc
import html
import importlib.util
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import move_profile as mp  # noqa: E402


def capture(tables: int) -> tuple[list, list]:
    """Play ``tables`` solo tables (12 moves each at most, and the poll that finds each
    change): every board partial's (request, template, context), every ``opaque`` call."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    import games.views.board as board_views
    import games.views.common as common_views

    renders, opaques = [], []
    render, opaque = board_views.render, common_views.opaque

    def keep_render(request, template, context, status=200):
        renders.append((request, template, dict(context)))
        return render(request, template, context, status=status)

    def keep_opaque(data, *, table_id, keys):
        opaques.append((data, table_id, keys))
        return opaque(data, table_id=table_id, keys=keys)

    board_views.render, common_views.opaque = keep_render, keep_opaque
    out = io.StringIO()
    call_command("seed_load", "--students", str(tables), stdout=out)
    rng = random.Random(7)
    for student in json.loads(out.getvalue())["students"]:
        client = Client()
        client.force_login(get_user_model().objects.get(username=student["username"]))
        url = f"/play/t/{student['table']}/"
        page = client.get(url).content.decode()
        for _move in range(12):
            actions = [html.unescape(a) for a in mp.ACTION_RE.findall(page)]
            if not actions or "Game over." in page:
                break
            version = mp.VERSION_RE.search(page).group(1)
            data = {
                "version": version,
                "token": mp.TOKEN_RE.search(page).group(1),
                "action": rng.choice(actions[:8]),
            }
            page = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
            client.get(f"{url}poll/?v={version}", HTTP_HX_REQUEST="true")
    board_views.render, common_views.opaque = render, opaque
    return [r for r in renders if r[1].endswith("#board")], opaques


def clock(function) -> float:
    started = time.process_time()
    function()
    return time.process_time() - started


def pair(first, second, flip: bool) -> tuple[float, float]:
    """CPU seconds of ``first()`` and ``second()``, run in that order or (``flip``) reversed."""
    if flip:
        b = clock(second)
        return clock(first), b
    a = clock(first)
    return a, clock(second)


def main() -> None:
    other = Path(sys.argv[1]).resolve()
    tables = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    passes = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    mp.setup_django(tempfile.mkdtemp())
    from django.conf import settings
    from django.template.backends.django import DjangoTemplates
    from django.template.loader import render_to_string

    import games.tokens as tokens_here

    options = dict(settings.TEMPLATES[0]["OPTIONS"])  # with template_partials' loaders
    engine = DjangoTemplates(
        {"NAME": "other", "DIRS": [str(other / "templates")], "APP_DIRS": False,
         "OPTIONS": options}
    )  # fmt: skip
    spec = importlib.util.spec_from_file_location("tokens_other", other / "games" / "tokens.py")
    tokens_other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tokens_other)
    partials, opaques = capture(tables)
    gc.collect()
    gc.disable()
    medians: dict[str, list[float]] = {"other": [], "here": []}
    for n in range(passes):
        spent = [0.0, 0.0]
        for i, (request, template, context) in enumerate(partials):
            a, b = pair(
                lambda t=template, c=context, r=request: engine.get_template(t).render(c, r),
                lambda t=template, c=context, r=request: render_to_string(t, c, r),
                (i + n) % 2 == 1,
            )
            spent[0] += a
            spent[1] += b
        medians["other"].append(1000 * spent[0] / len(partials))
        medians["here"].append(1000 * spent[1] / len(partials))
    print(
        f"board partial ({len(partials)} renders, {passes} passes, ms a render, median of "
        f"passes): other {statistics.median(medians['other']):.3f}, "
        f"here {statistics.median(medians['here']):.3f}"
    )
    tokens_here._token_of.cache_clear()  # a fresh worker: the cache fills as boards come
    for n in range(2):
        spent = [0.0, 0.0]
        for i, (data, table_id, keys) in enumerate(opaques):
            a, b = pair(
                lambda d=data, t=table_id, k=keys: tokens_other.opaque(d, table_id=t, keys=k),
                lambda d=data, t=table_id, k=keys: tokens_here.opaque(d, table_id=t, keys=k),
                i % 2 == 1,
            )
            spent[0] += a
            spent[1] += b
        print(
            f"opaque ({len(opaques)} boards, {'first pass' if n == 0 else 'second pass'}, "
            f"ms a board): other {1000 * spent[0] / len(opaques):.3f}, "
            f"here {1000 * spent[1] / len(opaques):.3f}"
        )
    print("tokens cached here:", tokens_here._token_of.cache_info())
    print("load average:", [round(x, 2) for x in os.getloadavg()])


if __name__ == "__main__":
    main()
