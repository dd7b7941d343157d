"""Every main page at four screen sizes, checked by axe-core, and a whole game by keyboard.

The demo data (``seed_demo``: a teacher, a class of students, a self-learner with history)
plus, for every engine registered in ``ENGINES``, a table of the self-learner against CPU
players in the middle of a game and another one finished. A new engine joins these checks
by being registered: its lobby form, its board mid-game and finished and its replay are
visited like the others.

- No page scrolls sideways at 360×740 (phone), 768×1024 (tablet), 1366×768 (school laptop)
  and 1920×1080: ``document.documentElement.scrollWidth`` never exceeds the window's width
  (wide tables scroll inside their own box). A screenshot (JPEG) of each page at each size goes to
  test-results/<test>/.
- axe-core (bundled by ``axe-playwright-python``: nothing is downloaded) finds no serious or
  critical violation on any page or partial state visited (boards with their actions, the
  quiz with a question and after a wrong answer, the daily session, teacher pages).
- A whole game is played with the keyboard alone: Tab to a legal action, Enter, until the
  ranking shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from htmx_waits import SETTLED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "kana-demo-2026"  # seed_demo's password for every demo account
SIZES = [(360, 740), (768, 1024), (1366, 768), (1920, 1080)]
AXE_SIZES = {(360, 740), (1366, 768)}  # axe at the phone and laptop layouts
BLOCKING = {"serious", "critical"}
CPU = {"kind": "bot", "level": "normal"}


@dataclass
class Site:
    class_id: int
    student_id: int
    engines: list[str]
    mid: dict[str, str]  # engine -> code of a table in the middle of a game
    done: dict[str, str]  # engine -> code of a finished table


def _solo_table(learner, engine: str, moves: int | None):
    from games.demo import _play_human_moves
    from games.engines import get_engine
    from games.services.tables import table_create

    eng = get_engine(engine)
    players = max(eng.MIN_PLAYERS, min(4, eng.MAX_PLAYERS))
    table = table_create(
        user=learner,
        engine=engine,
        options={"prompts": "off"},
        seats=[{"kind": "human", "user": learner}] + [CPU] * (players - 1),
    )
    _play_human_moves(table, learner, moves)
    table.refresh_from_db()
    return table


@pytest.fixture
def site(transactional_db) -> Site:
    from django.contrib.auth import get_user_model

    from games.engines import ENGINES
    from learning.classroom.models import Assignment, Classroom

    # the kana rows: tests/conftest.py reloads them for every transactional test
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    users = get_user_model().objects
    learner = users.get(username="learner")
    classroom = Classroom.objects.get(join_code="DEMO-KANA")
    student = users.get(username="student1")
    from django.utils import timezone

    Assignment.objects.get_or_create(
        classroom=classroom,
        title="Kana rows",
        defaults={"engine": "kazoku-families", "script": "hiragana", "options": {"variant": "kana"},
                  "due_at": timezone.now() + timezone.timedelta(days=3)},
    )  # fmt: skip
    engines = sorted(ENGINES)
    mid = {name: _solo_table(learner, name, moves=2).code for name in engines}
    done = {name: _solo_table(learner, name, moves=None).code for name in engines}
    return Site(classroom.pk, student.pk, engines, mid, done)


def log_in(context, base_url: str, username: str):
    page = context.new_page()
    page.goto(f"{base_url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    return page


def pages_of(site: Site) -> dict[str, list[tuple[str, str]]]:
    """(name, path) of every main page, per account (None: anonymous)."""
    c, s = site.class_id, site.student_id
    learner = [("home", "/"), ("lobby", "/play/"), ("learn", "/learn/"), ("daily", "/daily/"),
               ("kana", "/learn/kana/hiragana/nu/"), ("quiz", "/learn/quiz/")]  # fmt: skip
    for name in site.engines:
        learner += [
            (f"new-{name}", f"/play/new/{name}/"),
            (f"board-mid-{name}", f"/play/t/{site.mid[name]}/"),
            (f"board-done-{name}", f"/play/t/{site.done[name]}/"),
            (f"replay-{name}", f"/play/t/{site.done[name]}/replay/?step=3"),
        ]
    teacher = [
        ("teach", "/teach/"), ("class", f"/teach/{c}/"),
        ("class-kata", f"/teach/{c}/?script=katakana"),
        ("roster", f"/teach/{c}/students/"), ("student", f"/teach/{c}/students/{s}/"),
        ("assignments", f"/teach/{c}/assignments/"), ("live", f"/teach/{c}/live/"),
        ("settings", f"/teach/{c}/settings/"), ("teach-kana", f"/teach/{c}/kana/hiragana/nu/"),
    ]  # fmt: skip
    student = [("student-daily", "/daily/"), ("student-learn", "/learn/"),
               ("student-lobby", "/play/")]  # fmt: skip
    anonymous = [("login", "/login/"), ("signup", "/signup/"), ("join", "/join/")]
    return {"learner": learner, "teacher": teacher, "student1": student, None: anonymous}


SIDEWAYS = """() => {
  const width = window.innerWidth, doc = document.documentElement;
  if (doc.scrollWidth <= width) return null;
  const right = el => el.getBoundingClientRect().right;
  // the outermost elements that stick out: their parent still fits
  const wide = [...document.querySelectorAll('body *')].filter(el =>
    right(el) > width + 1 && el.getBoundingClientRect().width > 0
    && el.parentElement && right(el.parentElement) <= width + 1
  ).slice(0, 6).map(el => el.tagName.toLowerCase()
    + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '')
    + ' ' + Math.round(right(el)));
  return doc.scrollWidth + ' > ' + width + ': ' + wide.join(', ');
}"""


# axe-core's rules that can report a serious or critical violation, run without CSS selectors
# for the nodes: the verdict of a full run at a quarter less CPU (docs/bench.md, "Fast
# feedback", session 12). A rule whose own impact and every check's are minor or moderate can
# only report what BLOCKING leaves out; selectors (for the message) are worked out only when
# something was found, by the same run again. test_axe_still_finds_serious_problems bites.
AXE_SERIOUS = """async (withSelectors) => {
  const rank = {minor: 1, moderate: 2, serious: 3, critical: 4};
  const impact = id => rank[((axe._audit.checks[id] || {}).metadata || {}).impact] || 0;
  const rules = {};
  for (const rule of axe._audit.rules) {
    const checks = [...rule.any, ...rule.all, ...rule.none].map(c => c.id || c);
    if (Math.max(rank[rule.impact] || 0, ...checks.map(impact)) < rank.serious) {
      rules[rule.id] = {enabled: false};
    }
  }
  const results = await axe.run(document, {resultTypes: ['violations'], selectors: withSelectors,
                                           rules});
  return results.violations.filter(v => rank[v.impact] >= rank.serious).map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 3).map(node => (node.target || ['?'])[0]),
  }));
}"""


def axe_problems(page, label: str) -> list[str]:
    from axe_playwright_python.base import AXE_SCRIPT

    page.evaluate(AXE_SCRIPT)
    found = page.evaluate(AXE_SERIOUS, False)
    if found:
        found = page.evaluate(AXE_SERIOUS, True)
    assert {v["impact"] for v in found} <= BLOCKING
    return [
        f"{label}: {v['id']} ({v['impact']}): {v['help']} — " + "; ".join(v["targets"])
        for v in found
    ]


def test_axe_still_finds_serious_problems(browser):
    """The trimmed run's guard rail: a page with an image without a text alternative, a
    nameless button, grey-on-white text and a form field without a label is refused with
    each problem named and located, and the same page mended passes."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    broken = """<!doctype html><html lang="en"><head><title>Broken</title></head><body>
      <main><h1>Broken</h1><img src="data:," id="card"><button id="nameless"></button>
      <p id="faint" style="color:#ccc;background:#fff">Faint text</p>
      <input id="bare" type="text"></main></body></html>"""
    page.set_content(broken)
    problems = "\n".join(axe_problems(page, "broken"))
    for rule, target in (("image-alt", "#card"), ("button-name", "#nameless"),
                         ("color-contrast", "#faint"), ("label", "#bare")):  # fmt: skip
        assert f"broken: {rule} (" in problems and target in problems, problems
    labelled = '<label for="bare">Name</label><input id="bare"'
    mended = (broken.replace('id="card"', 'id="card" alt="Card"')
              .replace("></button>", ">Play</button>").replace("#ccc", "#333")
              .replace('<input id="bare"', labelled))  # fmt: skip
    page.set_content(mended)
    assert axe_problems(page, "mended") == []
    context.close()


def visit_all(browser, base_url: str, site: Site, results_dir: str, width: int, height: int):
    sideways, blocked = [], []
    for account, pages in pages_of(site).items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = log_in(context, base_url, account) if account else context.new_page()
        for name, path in pages:
            response = page.goto(base_url + path)
            assert response.status == 200, f"{name} {path}: HTTP {response.status}"
            # loaded (goto waits for it) and htmx settled: what "networkidle" waited for,
            # without its fixed half second of silence after every page
            page.wait_for_function(SETTLED)
            label = f"{width}x{height} {name}"
            # JPEG: a third of a PNG's CPU for a picture to look at (docs/bench.md, session 12)
            shot = f"{results_dir}/{width}x{height}-{name}.jpg"
            page.screenshot(path=shot, type="jpeg", quality=80)
            if too_wide := page.evaluate(SIDEWAYS):
                sideways.append(f"{label} ({path}): {too_wide}")
            if (width, height) in AXE_SIZES:
                blocked += axe_problems(page, label)
        if account == "learner" and (width, height) in AXE_SIZES:
            blocked += quiz_states(page, base_url, f"{width}x{height}")
        page.goto("about:blank")
        context.close()
    return sideways, blocked


def quiz_states(page, base_url: str, size: str) -> list[str]:
    """The quiz with a question on screen, then after a wrong answer (its stroke order)."""
    from django.utils import timezone

    from learning.models import Prompt
    from learning.models.memory import PromptStatus

    # every size starts from the quiz's start screen: the run an earlier size began is closed
    Prompt.objects.filter(source="quiz", status=PromptStatus.OPEN).update(expires_at=timezone.now())
    page.goto(f"{base_url}/learn/quiz/")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()
    page.wait_for_function(SETTLED)
    problems = axe_problems(page, f"{size} quiz-question")
    prompt_id = page.locator("input[name=prompt]").first.get_attribute("value")
    prompt = Prompt.objects.get(pk=prompt_id)
    right = prompt.choices.index(prompt.kana_id)  # buttons post their position
    page.locator(f"button[name=answer]:not([value='{right}'])").first.click()
    page.wait_for_selector(".prompt-feedback")
    assert page.locator(".quiz-strokes .stroke-order svg").count() == 1  # its stroke order
    return problems + axe_problems(page, f"{size} quiz-wrong-answer")


def test_no_page_scrolls_sideways_and_axe_finds_nothing_serious(
    site, live_server, browser, results_dir
):
    """Every size on one site: building it (the demo, a table mid-game and one finished per
    engine) cost ~5 s for each size. Each size's findings are gathered before the verdict."""
    sideways, blocked = [], []
    for width, height in SIZES:
        wide, serious = visit_all(browser, live_server.url, site, results_dir, width, height)
        sideways, blocked = sideways + wide, blocked + serious
    assert not sideways, "pages wider than the window:\n" + "\n".join(sideways)
    assert not blocked, "serious or critical axe violations:\n" + "\n".join(blocked)


KEYBOARD_STEP = """() => {
  const el = document.activeElement;
  if (el && el.matches('#board button[name=action]')) return 'enter';
  // a choice made before the action (Yokai: which yokai to move), as a keyboard user would
  if (el && el.matches('#board input[type=radio]:not(:checked)')) return 'space';
  return '';
}"""


@pytest.fixture
def keyboard_tables(transactional_db) -> dict[str, str]:
    from games.engines import ENGINES
    from kanagame.accounts.services import user_create

    player = user_create(username="keys", password=PASSWORD, role="self", display_name="Keys")
    return {name: _solo_table(player, name, moves=0).code for name in sorted(ENGINES)}


# The end of a game: a ranking, or a cooperative game's team result (Yokai).
GAME_OVER = "#board .ranking, #board .yk-result"


def test_a_whole_game_is_played_with_the_keyboard_alone(keyboard_tables, live_server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = log_in(context, live_server.url, "keys")
    for engine, code in keyboard_tables.items():
        page.goto(f"{live_server.url}/play/t/{code}/")
        moves = 0
        for _ in range(3000):
            if page.locator(GAME_OVER).count():
                break
            # the version is read before the focus is looked at: a poll that swaps the board
            # in between (a CPU's move made by a Celery worker) drops the focus to the page
            # until htmx settles, and an Enter pressed then does nothing; the new version ends
            # the wait below at once and the next step looks at the focus again
            before = page.locator("#board").get_attribute("data-version")
            step = page.evaluate(KEYBOARD_STEP)
            if step == "space":
                page.keyboard.press("Space")
            if step != "enter":
                page.keyboard.press("Tab")
                continue
            page.keyboard.press("Enter")
            page.wait_for_function(
                "(v) => { const b = document.querySelector('#board');"
                " return b && (b.dataset.version !== v"
                " || b.querySelector('.ranking, .yk-result')); }",
                arg=before,
            )
            moves += 1
        assert page.locator(GAME_OVER).count(), f"{engine}: not over after {moves} moves"
        assert moves > 0
    page.goto("about:blank")
    context.close()
