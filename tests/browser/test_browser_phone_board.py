"""On a phone the board's first screen holds what the player acts on (ARCHITECTURE §3; issue 25).

A self-learner plays every board of every engine (Kazoku families themed, kana rows and gojūon
columns, the word game, Yokai, Koi-Koi, Bōzu Mekuri) in Japanese with kana questions on
("every" card; Bōzu Mekuri's card questions on), at 360×740 (phone), 768×1024 (tablet) and
1366×768 (laptop), clicking moves and answering each question as a player would.

- Every time a question appears — on the first draw, after a move's htmx swap, after an
  answer's swap — its box lies inside the viewport (no scrolling first) and nothing covers
  it. The share of questions inside is written to test-results/<test>/prompts.txt (100 %).
- On the first screen (scroll 0) the first move the player can make is visible, above the
  question's sheet, and the header is short.
- The question is reached from the board's status line with one Tab; a question that comes
  with a move takes no focus (the focus stays on the board); an answered question sends the
  focus to its feedback; the new question's legend is announced by the live region.
- The result buttons of a finished game do not touch (issue 25, item 4).

A screenshot of each board with its question goes to test-results/<test>/; the Japanese
phone screenshot of the Kazoku families board is the one in docs/img/.
"""

from __future__ import annotations

import re
from unittest import mock

import pytest
from htmx_waits import SETTLED

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "kana-demo-2026"
CPU = {"kind": "bot", "level": "normal"}
BOARDS = {
    "families-themed": ("kazoku-families", {"variant": "themed"}),
    "families-kana": ("kazoku-families", {"variant": "kana"}),
    "families-gojuon": ("kazoku-families", {"variant": "gojuon"}),
    "words": ("kazoku-words", {}),
    "yokai": ("yokai", {}),
    "koikoi": ("koikoi", {"rounds": "3"}),
    "bozu": ("bozu", {"card_prompts": True}),
}
MOVES = 6  # moves per board (questions come with the cards a move shows)
SIZES = [(360, 740), (768, 1024), (1366, 768)]

QUESTION_BOX = """() => {
  const form = document.querySelector('#table-prompts form.prompt');
  if (!form) return null;
  const box = form.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + Math.min(box.height / 2, 30);
  const hit = document.elementFromPoint(x, y);
  return {id: form.getAttribute('action'), top: box.top, bottom: box.bottom, left: box.left,
          right: box.right, width: innerWidth, height: innerHeight,
          covered: !(hit && hit.closest('#table-prompts'))};
}"""
FIRST_MOVE = """() => {
  const visible = el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
  const move = [...document.querySelectorAll('#board button[name=action], #board .yk-card-label')]
    .find(visible);
  const sheet = document.querySelector('.board-question');
  const limit = sheet && getComputedStyle(sheet).position === 'fixed'
    ? sheet.getBoundingClientRect().top : innerHeight;
  return move ? {bottom: move.getBoundingClientRect().bottom, limit} : null;
}"""


@pytest.fixture
def tables(transactional_db) -> dict[str, str]:
    from games.engines import get_engine
    from games.services.tables import table_create

    player = user_create(username="hana", password=PASSWORD, role="self", display_name="Hana")
    codes = {}
    # the same deals every run: a random deal made the checks depend on luck (a Bozu deal
    # whose first six moves showed no poet twice opened no question at all)
    seeds = iter(range(7, 7 + len(BOARDS)))
    with mock.patch("games.services.tables.secrets.randbits", lambda bits: next(seeds)):
        for name, (engine, options) in BOARDS.items():
            eng = get_engine(engine)
            players = max(eng.MIN_PLAYERS, min(4, eng.MAX_PLAYERS))
            table = table_create(
                user=player,
                engine=engine,
                options={"prompts": "every", **options},
                seats=[{"kind": "human", "user": player}] + [CPU] * (players - 1),
            )
            codes[name] = table.code
    return codes


# what each answer's request got (status, or the htmx error), kept for a failure's message
ANSWER_LOG = """
  window.__answers = [];
  const events = ['htmx:afterRequest', 'htmx:sendError', 'htmx:responseError', 'htmx:swapError'];
  for (const name of events) {
    document.addEventListener(name, (e) => {
      const path = e.detail && e.detail.pathInfo && e.detail.pathInfo.requestPath || '';
      if (path.includes('/answer/')) window.__answers.push(name + ' ' + path + ' '
        + (e.detail.xhr ? e.detail.xhr.status : '') + ' ' + (e.detail.successful ?? ''));
    });
  }
"""


def log_in(context, base_url: str):
    context.add_cookies([{"name": "django_language", "value": "ja", "url": base_url}])
    context.add_init_script(ANSWER_LOG)
    page = context.new_page()
    page.goto(f"{base_url}/login/")
    page.fill("input[name=username]", "hana")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    return page


class Tally:
    """Every question seen, where it was when it appeared."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.shown = 0
        self.outside: list[str] = []
        self.per_board: dict[str, int] = {}

    def check(self, page, where: str) -> bool:
        box = page.evaluate(QUESTION_BOX)
        if box is None or box["id"] in self.seen:
            return box is not None
        self.seen.add(box["id"])
        self.shown += 1
        board = where.split()[0]
        self.per_board[board] = self.per_board.get(board, 0) + 1
        inside = (
            box["top"] >= 0
            and box["bottom"] <= box["height"] + 0.5
            and box["left"] >= 0
            and box["right"] <= box["width"] + 0.5
        )
        if not inside or box["covered"]:
            self.outside.append(f"{where}: {box}")
        return True


def answer(page) -> None:
    """Answer the open question as a player would (its first choice, or a typed reading)."""
    page.wait_for_function(SETTLED)  # htmx has bound the new question's form
    question = page.locator("#table-prompts form.prompt")
    before = question.get_attribute("action")
    typed = question.locator("input[name=answer]")
    if typed.count():
        typed.fill("a")
        typed.press("Enter")
    else:
        question.locator("button[name=answer]").first.click()
    try:
        page.wait_for_function(
            "(a) => { const f = document.querySelector('#table-prompts form.prompt');"
            " return document.querySelector('#table-prompts .prompt-feedback')"
            " && (!f || f.getAttribute('action') !== a); }",
            arg=before,
        )
    except Exception as exc:  # say what the answer's request got, for the record
        answers = page.evaluate("() => window.__answers || []")
        raise AssertionError(f"no swap after answering {before}; requests: {answers}") from exc


def move(page) -> bool:
    """Click the first visible legal move (Yokai: choose a yokai first); False when over."""
    page.wait_for_function(SETTLED)
    if page.locator("#board .ranking, #board .yk-result").count():
        return False
    before = page.locator("#board").get_attribute("data-version")
    action = page.locator("#board button[name=action]:visible")
    if not action.count():
        page.locator("#board .yk-card-label").first.click()
        action = page.locator("#board button[name=action]:visible")
    if not action.count():
        return False
    action.first.click()
    page.wait_for_function(
        "(v) => { const b = document.querySelector('#board');"
        " return b && (b.dataset.version !== v || b.querySelector('.ranking, .yk-result')); }",
        arg=before,
    )
    return True


def play_board(page, tally: Tally, name: str, results_dir: str, size: str) -> None:
    if tally.check(page, f"{name} first draw"):
        page.screenshot(path=f"{results_dir}/{size}-{name}.png")
    for step in range(MOVES):
        while tally.check(page, f"{name} move {step}"):
            answer(page)
            tally.check(page, f"{name} after an answer")
        if not move(page):
            break
        # a question that comes with a move does not take the focus from the board
        assert page.evaluate("() => !document.activeElement.closest('#table-prompts')"), (
            f"{name}: a question took the focus"
        )


@pytest.mark.parametrize("width, height", SIZES)
def test_the_open_question_is_always_on_screen(
    tables, live_server, browser, results_dir, width, height
):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    page = log_in(context, live_server.url)
    tally, first_screen = Tally(), []
    size = f"{width}x{height}"
    for name, code in tables.items():
        page.goto(f"{live_server.url}/play/t/{code}/")
        first = page.evaluate(FIRST_MOVE)
        if first is None or first["bottom"] > first["limit"]:
            first_screen.append(f"{name}: {first}")
        if width < 700:
            assert page.locator(".site-header").bounding_box()["height"] <= 110
        play_board(page, tally, name, results_dir, size)
    share = 100 * (tally.shown - len(tally.outside)) / max(tally.shown, 1)
    with open(f"{results_dir}/prompts.txt", "w") as out:
        out.write(f"{size}: {tally.shown} questions shown, {share:.0f} % inside the viewport\n")
        out.write(f"per board: {tally.per_board}\n")
    missing = set(BOARDS) - set(tally.per_board)
    assert not missing, f"no question appeared on {missing}"
    assert not tally.outside, "questions outside the viewport:\n" + "\n".join(tally.outside)
    assert not first_screen, "first move below the first screen:\n" + "\n".join(first_screen)
    page.goto("about:blank")
    context.close()


def test_the_question_by_keyboard_and_screen_reader(tables, live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP")
    page = log_in(context, live_server.url)
    page.goto(f"{live_server.url}/play/t/{tables['families-kana']}/")
    page.wait_for_selector("#table-prompts form.prompt")
    assert "{#" not in page.inner_text("body")  # no template comment shown as text
    # one Tab from the board's status line reaches the question
    page.locator("#board-status").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('#table-prompts form')")
    # answered, the focus goes to the feedback, and the announcer says it
    answer(page)
    page.wait_for_function("() => document.activeElement.matches('.prompt-feedback')")
    page.wait_for_function("() => document.getElementById('swap-announcer').textContent.trim()")
    announced = page.locator("#swap-announcer").inner_text()
    assert page.locator(".prompt-feedback").inner_text().strip()[:8] in announced
    page.goto("about:blank")
    context.close()


def test_the_result_buttons_do_not_touch(transactional_db, live_server, browser):
    from games.demo import _play_human_moves
    from games.services.tables import table_create

    player = user_create(username="hana", password=PASSWORD, role="self", display_name="Hana")
    table = table_create(
        user=player,
        engine="kazoku-families",
        options={"prompts": "off"},
        seats=[{"kind": "human", "user": player}, CPU, CPU],
    )
    _play_human_moves(table, player)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP")
    page = log_in(context, live_server.url)
    page.goto(f"{live_server.url}/play/t/{table.code}/")
    buttons = page.locator(".ranking .result-actions").locator("a.button, button")
    boxes = [b.bounding_box() for b in buttons.all()]
    assert len(boxes) == 3
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart_x = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))
            apart_y = max(b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
            assert max(apart_x, apart_y) >= 6, f"result buttons {a} and {b} touch"
    page.goto("about:blank")
    context.close()
