"""Journey (issue 29): classmates at one table. Two students on two phones play the teacher's
assigned game together to its end while the teacher watches the class's live page.

Student A (360×740, Japanese) opens the assignment "with a classmate" (seat 2 open, the other
seats CPU); the waiting page shows the table code and its share link. Student B (360×740,
French) joins with the code. Both pages name both players and say whose turn it is; each
student acts only when their own page says it is their turn, and every move's click on one
phone is timed until the other phone shows it (median and p95 printed). On the way:

- A reloads the page mid-game and still holds the seat;
- B's second device (no JavaScript, so no poll) moves on a stale board: 409, a clear message
  and the fresh board;
- B's tab is hidden (page visibility emulated): it polls at the hidden interval, catches up on
  a hidden poll and polls at once when shown. The product's hidden interval (15 s) is
  shortened to ``HIDDEN_S`` for the test (``POLL_HIDDEN_S``); the visible one stays the
  product's 2 s, which the latency measures;
- the teacher (1366×768, French) watches the table from the live page: no card of either
  student's hand that their own page shows only in the hand is in the teacher's page;
- A leaves (the table has a 30 s turn timer); when A's turn comes the test moves the turn's
  due time to the past instead of waiting 30 s, B's next poll runs the timeout, a CPU stand-in
  plays for A, and A comes back to the table page and plays again;
- both see the result and open the replay.

Every page a person sees passes the journeys' per-step checks (``journey_harness.step``).
"""

from __future__ import annotations

import re
import statistics
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from journey_harness import PASSWORD, RESULTS, open_journey
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = [pytest.mark.journey, pytest.mark.django_db(transaction=True)]

PHONE, LAPTOP = (360, 740), (1366, 768)
HIDDEN_S = 4  # the product's hidden-tab poll is 15 s; shortened here (docs/web.md)
GOAL_P95_S = 2.5
MAX_MOVES = 400
# short games, the teacher's settings (a 30 s turn timer), each long enough on every deal for
# the steps below: with 5 points to win the word game ended before them on 13-18 % of deals,
# and Bozu's default Semimaru (immediate elimination) put a student out of it first on 9 %
# (bench/journey_deals.py, 300 deals: 0 % for each game as set here; docs/web.md)
GAMES = {
    "koikoi": {"rounds": "3"},  # two humans
    "bozu": {"semimaru": "skip"},  # two humans and two CPU players (as the other games)
    "yokai": {"level": 1},
    "kazoku-families": {"end": "pile_empty"},
    "kazoku-words": {"target_points": 10},
}
# after this many human moves (each at the first chance)
RELOAD_AT, HIDE_AT, STALE_AT, LEAVE_AT = 2, 3, 4, 5
# the scripted steps, in order of precedence: (name, after this many human moves, on whose
# turn: seat 0 is A, 1 is B, None either)
STEPS = (("reload", RELOAD_AT, None), ("hide", HIDE_AT, 0), ("stale", STALE_AT, 1),
         ("leave", LEAVE_AT, 1))  # fmt: skip
TABLE_SETTINGS = {"prompts": "off", "romaji": "hover", "timer": 30}
MOVE = "#board button[name=action]:not([disabled]):visible"
SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', {get: () => state, configurable: true});
  Object.defineProperty(document, 'hidden', {get: () => state === 'hidden', configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
# Each page notes when it first showed each board version (Date.now(), one clock for all pages).
SEEN_VERSIONS = """(() => {
  window.__seen = {};
  const note = () => {
    const board = document.querySelector('#board');
    if (board && !(board.dataset.version in window.__seen)) {
      window.__seen[board.dataset.version] = Date.now();
    }
  };
  new MutationObserver(note).observe(document, {childList: true, subtree: true});
  document.addEventListener('DOMContentLoaded', note);
})();"""
SHOWN_AFTER = """(v) => {
  const times = Object.entries(window.__seen || {}).filter(([k]) => +k > v).map(([, t]) => t);
  return times.length ? Math.min(...times) : null;
}"""
# Cards a player's page shows only in their own hand (names or glyphs found nowhere else on it).
HAND_SECRETS = """() => {
  const hands = [...document.querySelectorAll('.my-hand')];
  const name = (el) => (el.getAttribute('aria-label') || el.textContent || '')
    .replace(/\\s+/g, ' ').trim();
  const cards = (root) => [...root.querySelectorAll('[role=img][aria-label], .kana-card')];
  const inHand = new Set();
  for (const hand of hands) for (const card of cards(hand)) inHand.add(name(card));
  const rest = document.body.cloneNode(true);
  rest.querySelectorAll('.my-hand').forEach((hand) => hand.remove());
  const elsewhere = new Set(cards(rest).map(name));
  const text = rest.textContent.replace(/\\s+/g, ' ');
  return [...inHand].filter((n) => n && !elsewhere.has(n) && !text.includes(n));
}"""
EVERYTHING_SHOWN = """() => {
  const parts = [document.body.textContent.replace(/\\s+/g, ' ')];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) parts.push(a.value);
  }
  return parts.join('\\n');
}"""

LATENCIES: list[float] = []  # this game's
RUN_LATENCIES: list[float] = []  # the whole run's (every game)
# where the first move button is over a few frames (a click that times out says why)
BUTTON_FRAMES = """async () => {
  const out = [];
  for (let i = 0; i < 8; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const b = document.querySelector('#board button[name=action]:not([disabled])');
    const r = b && b.getBoundingClientRect();
    const focus = document.activeElement;
    out.push([scrollY, r && [r.x, r.y, r.width, r.height], focus && focus.outerHTML.slice(0, 80)]);
  }
  const actions = document.querySelector('#board .actions');
  return JSON.stringify(out) + ' actions: ' + (actions && actions.outerHTML.slice(0, 600));
}"""


@pytest.fixture(scope="module", autouse=True)
def latency_over_the_run():
    """The goal is over the whole run (issue 29): median and p95 of every game's moves."""
    yield
    if RUN_LATENCIES:
        median, p95 = statistics.median(RUN_LATENCIES), percentile(RUN_LATENCIES, 0.95)
        print(
            f"\nwhole run: {len(RUN_LATENCIES)} moves timed: move click → other phone "
            f"median {median:.2f} s, p95 {p95:.2f} s, max {max(RUN_LATENCIES):.2f} s"
        )
        assert p95 <= GOAL_P95_S, f"p95 {p95:.2f} s over the goal of {GOAL_P95_S} s"


@pytest.fixture
def quick_hidden_polls(monkeypatch):
    from games.views import board

    monkeypatch.setattr(board, "POLL_HIDDEN_S", HIDDEN_S)


@pytest.fixture
def class_of_two(kana):
    """Mori's class (fr), with Yuki (ja) and Léa (fr), and one assignment per game."""
    from kanagame.accounts.services import user_create
    from learning.classroom.models import Assignment
    from learning.classroom.services.classroom import classroom_create, student_join

    teacher = user_create(username="mori", password=PASSWORD, role="teacher", display_name="Mori")
    classroom = classroom_create(teacher=teacher, name="5e B – Japonais")
    student_join(code=classroom.join_code, display_name="ゆき", password=PASSWORD, username="yuki")
    student_join(code=classroom.join_code, display_name="Léa", password=PASSWORD, username="lea")
    due = timezone.now() + timedelta(days=7)
    for engine, options in GAMES.items():
        Assignment.objects.create(
            classroom=classroom, engine=engine, options={**options, **TABLE_SETTINGS},
            script="hiragana", due_at=due, goal_value=1,
        )  # fmt: skip
    return classroom


def log_in(journey, username: str) -> None:
    page = journey.page
    journey.go("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/login/)"))
    page.wait_for_load_state("networkidle")


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def my_turn(page) -> bool:
    return bool(page.locator("#board-status .your-turn").count())


def to_act(table) -> list[int]:
    from games.engines import get_engine

    table.refresh_from_db()
    if table.status == "finished":
        return []
    eng = get_engine(table.engine)
    return eng.to_act(eng.from_json(table.state))


def play_one(player, other) -> int:
    """``player`` clicks a legal move once their page says it is their turn; the time until
    ``other`` (None: not measured) shows it is noted. Returns the version the click was on."""
    page = player.page
    page.wait_for_selector("#board-status .your-turn")
    radio = page.locator("#board input[type=radio]:not(:checked):visible")
    if radio.count() and not page.locator(MOVE).count():  # choose first (Yokai: a card)
        choice = radio.first
        label = page.locator(f"label[for='{choice.get_attribute('id')}']")
        (label.first if label.count() else choice).click()  # as a finger does
    primary = page.locator(f"{MOVE}.primary")
    button = primary.first if primary.count() else page.locator(MOVE).first
    before = version(page)
    clicked_at = page.evaluate("Date.now()")
    try:
        button.click()
    except PlaywrightTimeout as error:  # say what the button did meanwhile
        raise AssertionError(f"{player.name}: {page.evaluate(BUTTON_FRAMES)}") from error
    page.wait_for_function(
        "(v) => +(document.querySelector('#board') || {dataset: {}}).dataset.version > v",
        arg=before,
    )
    if other is not None:
        other.page.wait_for_function(f"(v) => ({SHOWN_AFTER})(v) !== null", arg=before)
        shown_at = other.page.evaluate(SHOWN_AFTER, before)
        LATENCIES.append((shown_at - clicked_at) / 1000)
    return before


def hand_secrets(user, table_url: str, probe) -> list[str]:
    """What ``user``'s own page (in French, like the teacher's) shows only in their hand."""
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(table_url).content.decode()
    probe.set_content(html)
    return probe.evaluate(HAND_SECRETS)


def check_teacher_sees_no_hand(teacher, students, table, probe) -> int:
    page = teacher.page
    page.wait_for_function(
        "(v) => +document.querySelector('#board').dataset.version >= v", arg=table.version
    )
    shown = page.evaluate(EVERYTHING_SHOWN)
    assert not page.locator(".my-hand").count(), "the teacher's page shows a hand"
    secrets = [
        card for user in students for card in hand_secrets(user, table.get_absolute_url(), probe)
    ]
    leaked = [card for card in secrets if card in shown]
    assert not leaked, f"the teacher sees hidden cards: {leaked}"
    return len(secrets)


def next_step(moves: int, done: set[str], acting: list[int]) -> str | None:
    """The scripted step to run after ``moves`` human moves, with the steps ``done`` and the
    seats ``acting`` now: the first of ``STEPS`` not done whose moves and turn have come, or
    None. bench/journey_deals.py plays the same schedule on the engines alone."""
    for name, at, seat in STEPS:
        if name not in done and moves >= at and (seat is None or acting == [seat]):
            return name
    return None


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


@pytest.mark.parametrize("engine", list(GAMES))
def test_classmates_play_together_while_the_teacher_watches(
    engine, class_of_two, quick_hidden_polls, live_server, browser
):
    from django.contrib.auth import get_user_model

    from games.models import Seat, Table

    users = get_user_model().objects
    yuki, lea = users.get(username="yuki"), users.get(username="lea")
    assignment = class_of_two.assignments.get(engine=engine)
    LATENCIES.clear()
    ctx_a, a = open_journey(browser, live_server.url, f"classmates-{engine}-a-ja", PHONE, "ja")
    ctx_b, b = open_journey(browser, live_server.url, f"classmates-{engine}-b-fr", PHONE, "fr")
    ctx_t, t = open_journey(browser, live_server.url, f"classmates-{engine}-teacher", LAPTOP, "fr")
    for context in (ctx_a, ctx_b):
        context.add_init_script(SEEN_VERSIONS)
    polls_b: list[float] = []
    b.page.on("request", lambda r: polls_b.append(time.monotonic()) if "/poll/" in r.url else None)

    # 1. A opens the assignment with a seat for a classmate: the code and the link are shown
    log_in(a, "yuki")
    a.go("/")
    a.step("home")
    a.page.locator(
        f"form.play-assignment-classmate[action='/assignments/{assignment.pk}/play/'] button"
    ).click()
    a.page.wait_for_url("**/play/t/**")
    table = Table.objects.get(seats__user=yuki, assignment_link__assignment=assignment)
    a.step("waiting for a classmate: code and link")
    share = a.page.locator("#board .share-link")
    assert share.inner_text() == f"{live_server.url}/play/t/{table.code}/"
    assert table.code in a.page.locator("#board .share").inner_text()

    # 2. B joins with the code; the game is dealt; both name both and say whose turn it is
    log_in(b, "lea")
    b.go("/play/")
    b.step("lobby")
    b.page.fill("#join-code", table.code.lower())
    b.page.locator("#join-code").locator("xpath=ancestor::form").locator("button").click()
    b.page.wait_for_url(f"**/play/t/{table.code}/")
    b.step("joined with the code")
    a.page.wait_for_selector("#board .waiting", state="detached")
    a.step("the classmate is there")
    for journey, other_name in ((a, "Léa"), (b, "ゆき")):
        assert other_name in journey.page.locator("#board").inner_text()
        assert journey.page.locator("#board-status").inner_text().strip()
    seat_of = {yuki.pk: 0, lea.pk: 1}
    assert dict(table.seats.filter(user__isnull=False).values_list("user", "index")) == seat_of
    journeys = {0: a, 1: b}

    # 3. the teacher opens the class's live page and watches the table
    log_in(t, "mori")
    t.go(f"/teach/{class_of_two.pk}/live/")
    t.step("live tables")
    t.page.locator(f"#live-tables a[href='/play/t/{table.code}/']").click()
    t.page.wait_for_url(f"**/play/t/{table.code}/")
    t.step("the teacher watches the table")
    probe = ctx_t.new_page()
    secrets_checked = check_teacher_sees_no_hand(t, (yuki, lea), table, probe)

    # 4. they play to the end, each on their own turn
    moves, steps_done = 0, set()
    while (acting := to_act(table)) and moves < MAX_MOVES:
        assert len(acting) == 1 and acting[0] in journeys, f"to act: {acting}"
        player, other = journeys[acting[0]], journeys[1 - acting[0]]
        play_one(player, other)
        moves += 1
        if moves == 1:
            a.step("after the first move")
            b.step("after the first move")
        step, ran = next_step(moves, steps_done, to_act(table)), True
        if step == "reload":  # A reloads: still seated
            a.page.reload()
            a.page.wait_for_load_state("networkidle")
            a.step("A reloads mid-game")
            assert a.page.locator("#board .leave-form").count(), "A lost the seat on reload"
        elif step == "hide":
            ran = hide_b_while_a_plays(a, b, polls_b)
        elif step == "stale":
            ran = stale_second_device(browser, b, live_server.url, table)
        elif step == "leave":
            ran = leave_and_return(a, b, table, yuki)
            check_teacher_sees_no_hand(t, (yuki, lea), table, probe)
        if step and step != "reload":
            moves += 1  # the step's own move
        if step and ran:
            steps_done.add(step)
    table.refresh_from_db()
    assert table.status == "finished", f"not over after {moves} moves"
    done = tuple(name in steps_done for name, _, _ in STEPS)
    # a human seat a stand-in played for (its 30 s timer ran out during a slow step) explains
    # a game that ended before the steps that wait for that seat's turn
    stood_in = list(table.seats.filter(autoplay=True).values_list("index", flat=True))
    assert all(done), (
        f"the game ended before every step ran (reload, hide, stale, leave): {done}, "
        f"after {moves} human moves; seats a stand-in played: {stood_in}"
    )

    # 5. both see the result and the replay
    for journey in (a, b):
        journey.page.wait_for_selector("#board .ranking, #board .yk-result")
        journey.step("result")
        journey.page.locator("#board a[href$='/replay/']").first.click()
        journey.page.wait_for_url("**/replay/**")
        journey.step("replay")
    assert Seat.objects.filter(table=table, autoplay=True).count() == 0

    median, p95 = statistics.median(LATENCIES), percentile(LATENCIES, 0.95)
    print(
        f"\n{engine}: {moves} human moves, {len(LATENCIES)} timed: move click → other phone "
        f"median {median:.2f} s, p95 {p95:.2f} s, max {max(LATENCIES):.2f} s; "
        f"{secrets_checked} hidden cards checked on the teacher's page"
    )
    for page in (a.page, b.page, t.page, probe):
        page.goto("about:blank")
    for context in (ctx_a, ctx_b, ctx_t):
        context.close()
    RUN_LATENCIES.extend(LATENCIES)
    for journey in (a, b, t):
        journey.problems = [p for p in journey.problems if not romaji_tooltip(p)]
        journey.check()


def romaji_tooltip(problem: str) -> bool:
    """A poet's romaji in a tooltip (Bōzu's hover romaji: ``title="Semimaru"``) is a reading,
    not English: the harness exempts romaji text nodes but reads every ``title``, and
    "Semimaru" is also the msgid of a Bōzu option. Left for the harness's owner to exempt."""
    from games.engines.bozu.data import load_poets

    names = {card.romaji for card in load_poets().cards.values()}
    found = re.search(r"untranslated: “(.+)”$", problem)
    return bool(found and found.group(1) in names)


def hide_b_while_a_plays(a, b, polls_b: list[float]) -> bool:
    """B's tab is hidden while A moves: B polls at the hidden interval, learns of the move on a
    hidden poll, and polls at once when shown."""
    b.page.evaluate(SET_VISIBILITY, "hidden")
    b.page.wait_for_timeout(300)  # a poll already in flight lands
    start = len(polls_b)
    hidden_at = time.monotonic()
    before = play_one(a, None)
    b.page.wait_for_function(f"(v) => ({SHOWN_AFTER})(v) !== null", arg=before)
    caught_up = time.monotonic() - hidden_at
    b.page.wait_for_timeout(HIDDEN_S * 1000)
    hidden = polls_b[start:]
    span = time.monotonic() - hidden_at
    assert caught_up <= HIDDEN_S + 1.5, f"hidden tab caught up after {caught_up:.1f} s"
    assert len(hidden) <= span / HIDDEN_S + 1, f"{len(hidden)} polls in {span:.1f} s hidden"
    b.step("hidden tab caught up")
    shown = len(polls_b)
    b.page.evaluate(SET_VISIBILITY, "visible")
    b.page.wait_for_timeout(600)
    assert len(polls_b) > shown, "no poll as soon as the tab shows again"
    return True


def stale_second_device(browser, b, base_url: str, table) -> bool:
    """B's second device (no JavaScript: no poll) still shows the board from before B's move
    on the phone; a move from it is refused (409) with the fresh board and a clear message."""
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        locale="fr",
        java_script_enabled=False,
        storage_state=b.page.context.storage_state(),
    )
    page = context.new_page()
    page.goto(base_url + table.get_absolute_url())
    stale = version(page)
    play_one(b, None)
    with page.expect_navigation() as navigation:
        page.locator("#board button[name=action]").first.click(force=True)
    assert navigation.value.status == 409, f"a stale move answered {navigation.value.status}"
    message = page.locator("#board .message-error[role=alert]").inner_text()
    assert "La partie a changé avant que votre coup n’arrive." in message, message
    assert version(page) > stale, "the 409 page does not show the fresh board"
    page.screenshot(path=str(RESULTS / b.name / "stale-second-device-409.png"), full_page=True)
    context.close()
    return True


def leave_and_return(a, b, table, yuki) -> bool:
    """A leaves on B's turn; on A's turn the timer runs out (moved to the past rather than
    waited for), B's poll runs it, a CPU stand-in plays A's turn; A comes back."""
    from games.models import Seat, Table

    a.page.locator("#board .leave-form button").click()
    a.page.wait_for_url("**/play/")
    a.step("A left the table")
    while to_act(table) == [1]:
        play_one(b, None)
    if not to_act(table):
        return False  # the game ended on B's move
    before = version(b.page)
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=1))
    b.page.wait_for_function(f"(v) => ({SHOWN_AFTER})(v) !== null", arg=before)
    assert Seat.objects.get(table=table, user=yuki).autoplay, "no CPU stand-in for A"
    b.step("a CPU stand-in played for A")
    a.page.locator(f"a[href='/play/t/{table.code}/']").first.click()
    a.page.wait_for_url(f"**/play/t/{table.code}/")
    # the page posts "I'm back" as it loads (a GET writes nothing): its answer drops the note
    a.page.wait_for_selector("#board .away-note", state="detached")
    a.step("A is back at the table")
    assert not Seat.objects.get(table=table, user=yuki).autoplay
    assert not a.page.locator("#board .away-note").count()
    return True
