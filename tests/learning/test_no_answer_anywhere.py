"""No answer obtainable without recall: every engine × variant × script × prompt kind.

Issue 27 (part 1) and issue 24 (LOW 5). For each combination a table is created through the
real services with prompts "every" and romaji "always" (the most generous setting), the real
learning hooks make the open prompt as a game does (cards entering the hand: reading and
typed questions; a failed ask: a glyph question; a known Bōzu card: a card question), and the
prompted learner's board page, its poll partial and the prompt partial shown after answering
the question before are read whole, not only their visible text. The answer must not be
obtainable outside the question from:

- visible text, ``aria-label``, ``title``, ``alt``, every ``data-*`` attribute (``data-say``,
  ``data-card``), button values and JSON anywhere in the page (action keys);
- the reading written as romaji: any kana reading in capitals (``SHI`` on a card, ``(SHI)`` in
  the log, a family named ``NA`` or ``SA``), or as a lowercase word in attributes and JSON
  (card ids ``shi``, ``botan-chaff-1``; every card id of the deck is looked for);
- the log: a glyph question's answer (``き``) in any log line ("You asked CPU 2 for き");
- a listen button (``data-say``/``data-speak``) whose text holds the asked kana or a kana of
  the same reading;
- the question's own buttons: a glyph or card question's choices carry no reading in their
  value (the button whose value is ``ki`` under "Which kana is “ki”?").

Tokens are whole: ``SHI`` matches in ``し (SHI)`` but not in ``SHIKA``; lowercase readings are
looked for only in attributes and JSON, where English words are not written (``to``, ``no``,
``a`` are words of the page's sentences). The quiz is checked the same way.
"""

from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from games.engines import action_key, get_engine
from games.services.play import table_engine_state, table_play
from games.services.tables import table_create
from games.views.common import new_token
from learning import kana_table
from learning.models import CardSighting, KanaMemory, Prompt
from learning.models.memory import PromptKind, PromptStatus
from learning.services import quiz as quiz_service

pytestmark = pytest.mark.django_db(transaction=True)

READINGS = {info.romaji for info in (kana_table.info(k, s) for k, s in kana_table.catalog())}
GLYPH_READING = {
    kana_table.info(k, s).glyph: kana_table.info(k, s).romaji for k, s in kana_table.catalog()
}

# attributes whose values are addresses, styling or random tokens, not something shown
SKIPPED_ATTRS = {"class", "style", "href", "src", "action", "id", "for", "lang", "method", "type"}
SKIPPED_INPUTS = {"csrfmiddlewaretoken", "token", "version", "next", "table_id", "prompt"}


class Page(HTMLParser):
    """A page split into what lies outside the open question and the question itself
    (the ``<fieldset>`` of ``#table-prompts`` / ``#quiz-card``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []  # text nodes outside the question (scripts included)
        self.attrs: list[tuple[str, str]] = []  # (name, value) outside the question
        self.log: list[str] = []  # text of the game log
        self.say: list[str] = []  # what listen buttons would speak
        self.choice_values: list[str] = []  # the question's answer buttons
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, in question, in log)
        self._prompt_depth = None

    VOID = {"input", "br", "img", "meta", "link", "hr", "source", "area", "col", "wbr"}

    def _in(self, index: int) -> bool:
        return any(entry[index] for entry in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        in_question = self._in(1)
        if tag == "section" and attrs.get("id") in ("table-prompts", "quiz-card"):
            self._prompt_depth = len(self.stack)
        if tag == "fieldset" and self._prompt_depth is not None:
            in_question = True
        in_log = self._in(2) or "log-list" in attrs.get("class", "").split()
        if tag not in self.VOID:
            self.stack.append((tag, in_question, in_log))
        if in_question:
            if tag == "button" and attrs.get("name") == "answer":
                self.choice_values.append(attrs.get("value", ""))
            return
        for name in ("data-say", "data-speak"):
            if name in attrs:
                self.say.append(attrs[name])
        if tag == "input" and attrs.get("name") in SKIPPED_INPUTS:
            return
        for name, value in attrs.items():
            if name in SKIPPED_ATTRS or (name.startswith("hx-") and name != "hx-vals"):
                continue
            if not value:
                continue
            self.attrs.append((name, value))

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                if self._prompt_depth is not None and len(self.stack) <= self._prompt_depth:
                    self._prompt_depth = None
                return

    def handle_data(self, data):
        if self._in(1):
            return
        self.text.append(data)
        if self._in(2):
            self.log.append(data)


def parse(page: str) -> Page:
    parser = Page()
    parser.feed(page)
    return parser


def caps(text: str) -> set[str]:
    """Words written in capitals (``SHI``, ``KA``), as whole tokens."""
    return set(re.findall(r"(?<![A-Za-z0-9])[A-Z]+(?![A-Za-z0-9])", text))


def lowers(text: str) -> set[str]:
    """Lowercase words (``shi`` in ``"card":"shi"``, ``botan`` in ``botan-chaff-1``)."""
    return set(re.findall(r"(?<![A-Za-z0-9])[a-z]+(?![A-Za-z0-9])", text))


def said_readings(text: str) -> set[str]:
    return {GLYPH_READING[ch] for ch in text if ch in GLYPH_READING}


# words in capitals of the page's own that are no reading given away: the licence of the
# stroke drawings (CC BY-SA)
CHROME = ("CC BY-SA",)


def leaks(
    page: str, prompt: Prompt, *, card_ids: set[str], asked: bool = False, solution: str = ""
) -> list[str]:
    """Every way the answer of ``prompt`` can be read off ``page`` outside the question.
    ``asked``: the question was made by a move that named the kana (a failed ask), so the
    log must not show it; ``solution``: a card question's (the poem's second half)."""
    found: list[str] = []
    kana = kana_table.info(prompt.kana_id, prompt.script)
    romaji, glyph = kana.romaji, kana.glyph
    parsed = parse(page)
    shown = " ".join(parsed.text) + " " + " ".join(v for _, v in parsed.attrs)
    for text in CHROME:
        shown = shown.replace(text, "")
    # any kana reading in capitals: a card's romaji, a family's or row's name (NA, SA)
    spelled = sorted(w for w in caps(shown) if w.lower() in READINGS and len(w) > 1)
    if len(romaji) > 1 and romaji.upper() in caps(shown):
        spelled.append(romaji.upper())
    elif len(romaji) == 1:  # "A" and "I" are English words: a label of its own, or "(A)"
        alone = {t.strip() for t in parsed.text} | {v.strip() for _, v in parsed.attrs}
        if romaji.upper() in alone or f"({romaji.upper()})" in shown:
            spelled.append(romaji.upper())
    if spelled:
        found.append(f"readings in capitals: {sorted(set(spelled))}")
    # lowercase readings and card ids in machine-read attributes (data-card, button values)
    # and JSON (English words of titles and labels are not looked at: "a", "no", "to")
    in_attrs = " ".join(
        v for n, v in parsed.attrs if n.startswith("data-") or n in ("value", "hx-vals")
    )
    script_text = " ".join(t for t in parsed.text if t.lstrip().startswith(("{", "[")))
    machine = in_attrs + " " + script_text
    if romaji in lowers(machine):
        found.append(f"the reading {romaji!r} in an attribute or JSON")
    ids = {value for value in re.split(r"[\s\"'{}\[\],:]+", machine) if value in card_ids}
    if ids:
        found.append(f"card ids in the page: {sorted(ids)[:5]}")
    if prompt.kind == PromptKind.CARD:  # the answer begins the solution: neither is shown
        for text in (solution, solution.replace(" ", "")):
            if text and text in page:
                found.append("the solution is in the page")
        for text in parsed.say:
            if solution and solution.split()[0] in text:
                found.append(f"a listen button says {text!r}")
    else:  # listen buttons that would say the answer
        for text in parsed.say:
            if glyph in text or romaji in said_readings(text):
                found.append(f"a listen button says {text!r}")
    # the log: the glyph a move named (a question made by a failed ask)
    if asked and glyph in {text.strip() for text in parsed.log}:  # a card, not in a word
        found.append(f"the log shows {glyph}")
    # the question's own buttons: no reading in their values
    if prompt.kind in (PromptKind.GLYPH, PromptKind.CARD):
        named = [v for v in parsed.choice_values if v.lower() in READINGS]
        if named:
            found.append(f"choice values are readings: {named}")
    return found


# --- the combinations --------------------------------------------------------------------

CASES = [
    *[
        ("kazoku-families", {"variant": v, "script": s})
        for v in ("themed", "kana", "gojuon")
        for s in ("hiragana", "katakana", "mixed")
    ],
    *[("kazoku-words", {"script": s}) for s in ("hiragana", "katakana")],
    *[("yokai", {"level": 1, "script": s}) for s in ("hiragana", "katakana")],
    ("koikoi", {}),
    *[("bozu", {"spelling": s, "semimaru": "skip"}) for s in ("modern", "historical")],
]
KINDS = [PromptKind.READING, PromptKind.TYPED, PromptKind.GLYPH]


def _case_id(case) -> str:
    engine, options = case
    return "-".join([engine, *[str(v) for k, v in options.items() if k != "semimaru"]])


def _table(user, engine: str, options: dict):
    eng = get_engine(engine)
    players = max(eng.MIN_PLAYERS, min(3, eng.MAX_PLAYERS))
    seats = [{"kind": "human", "user": user}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    options = {"romaji": "always", "prompts": "every", **options}
    return table_create(user=user, engine=engine, options=options, seats=seats)


def _step(user, table, *, prefer: str | None) -> bool:
    """The learner's move when it is its turn (an ``ask`` first when ``prefer`` says so)."""
    table.refresh_from_db()
    if table.status != "playing":
        return False
    eng, state = table_engine_state(table=table)
    if 0 not in eng.to_act(state):
        return False
    legal = eng.legal_actions(state, 0)
    chosen = next((a for a in legal if a.get("type") == prefer), None) if prefer else None
    chosen = chosen or random.Random(table.version).choice(legal)
    table_play(
        table=table, user=user, version=table.version, token=new_token(), key=action_key(chosen)
    )
    table.refresh_from_db()
    return True


def _open(user, table):
    return list(
        Prompt.objects.filter(learner=user, table_id=table.pk, status=PromptStatus.OPEN).order_by(
            "shown_at", "id"
        )
    )


def _expire(prompts) -> None:
    Prompt.objects.filter(pk__in=[p.pk for p in prompts]).update(status=PromptStatus.EXPIRED)


def _prompt_of_kind(user, table, kind: str):
    """Play until the real hooks have opened a prompt of ``kind`` (a failed ask: glyph; a
    card entering the hand: reading, or typed once the kana was last answered right). Games
    whose moves name no kana get the hook's reading question asked as a glyph question."""
    # the games whose moves name a kana (an ask); at a mixed-script table a failed ask opens
    # no glyph question today (games.services.observe names the kana in script "mixed",
    # which no kana has), so its reading question is asked as one there too
    asks = table.engine.startswith("kazoku") and table.options.get("script") != "mixed"
    for _turn in range(120):
        found = [p for p in _open(user, table) if p.kind == kind]
        if found:
            _expire([p for p in _open(user, table) if p.kind != kind])
            return found
        if kind == PromptKind.GLYPH and not asks:
            reading = [p for p in _open(user, table) if p.kind == PromptKind.READING]
            if reading:
                Prompt.objects.filter(pk=reading[0].pk).update(kind=PromptKind.GLYPH)
                continue
        _expire(_open(user, table))
        played = _step(user, table, prefer="ask" if kind == PromptKind.GLYPH else None)
        if not played and table.status != "playing":
            break
        if not played:  # a CPU's turn that did not resolve (should not happen in eager mode)
            table.refresh_from_db()
    return []


def _pages(client: Client, table, prompts) -> list[tuple[str, Prompt, str]]:
    """(where, the prompt on screen, the page): the board page, its poll partial, and the
    prompt partial swapped in after answering the question before (htmx)."""
    out = []
    page = client.get(f"/play/t/{table.code}/")
    assert page.status_code == 200
    out.append(("page", prompts[0], page.content.decode()))
    poll = client.get(f"/play/t/{table.code}/poll/?v=stale")
    assert poll.status_code in (200, 286)
    out.append(("poll", prompts[0], poll.content.decode()))
    if len(prompts) > 1:
        first = prompts[0]
        answer = first.choices[0] if first.choices else "x"
        if first.kind == PromptKind.TYPED:
            answer = "x"
        response = client.post(
            f"/learn/prompts/{first.pk}/answer/",
            {"answer": _posted(client, table, first, answer), "table_id": table.pk},
            HTTP_HX_REQUEST="true",
        )
        if response.status_code == 200:
            out.append(("prompt partial", prompts[1], response.content.decode()))
    return out


def _posted(client, table, prompt, answer: str) -> str:
    """What the page's button for ``answer`` posts (the value may be opaque)."""
    page = client.get(f"/play/t/{table.code}/").content.decode()
    values = re.findall(r'name="answer" value="([^"]*)"', page)
    if prompt.kind == PromptKind.TYPED or not values:
        return answer
    return values[prompt.choices.index(answer)] if answer in prompt.choices else values[0]


def _card_ids(table) -> set[str]:
    eng = get_engine(table.engine)
    deck = set(eng.deck(eng.from_json(table.state)))
    # ids too short to be told from words of the page ("a", "e") are looked for by reading
    return {card for card in deck if len(card.split(".")[0]) > 1}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_no_answer_obtainable_without_recall(dana, case, kind, django_capture_on_commit_callbacks):
    engine, options = case
    client = Client()
    client.force_login(dana)
    if kind == PromptKind.TYPED:  # recall is asked of kana last answered right
        KanaMemory.objects.bulk_create(
            [
                KanaMemory(learner=dana, kana_id=k, script=s, last_correct=True)
                for k, s in kana_table.catalog()
            ]
        )
    with django_capture_on_commit_callbacks(execute=True):
        table = _table(dana, engine, options)
    prompts = _prompt_of_kind(dana, table, kind)
    if not prompts:
        # every combination of the matrix opens its question: one that stops doing so fails
        # rather than skipping (a skipped case would leave that kind unchecked)
        pytest.fail(f"{engine} {options}: the game opened no {kind} question to check")
    card_ids = _card_ids(table)
    asked = kind == PromptKind.GLYPH and engine.startswith("kazoku")  # made by a failed ask
    asked = asked and options.get("script") != "mixed"
    problems = []
    for where, prompt, page in _pages(client, table, prompts):
        for problem in leaks(page, prompt, card_ids=card_ids, asked=asked):
            problems.append(f"{where} ({prompt.kind} {prompt.script} {prompt.kana_id}): {problem}")
    assert not problems, "\n".join(problems)


def test_a_card_question_leaves_no_answer_either(dana, django_capture_on_commit_callbacks):
    """Bōzu's question about a known card, made by the real hook."""
    client = Client()
    client.force_login(dana)
    with django_capture_on_commit_callbacks(execute=True):
        table = _table(dana, "bozu", {"card_prompts": True, "prompts": "off", "semimaru": "skip"})
    eng = get_engine("bozu")
    deck = eng.deck(eng.from_json(table.state))
    CardSighting.objects.bulk_create(
        [CardSighting(learner=dana, engine="bozu", card=c, seen=20) for c in set(deck)],
        ignore_conflicts=True,
    )
    CardSighting.objects.filter(learner=dana).update(seen=20)
    checked, problems = 0, []
    for _turn in range(200):
        with django_capture_on_commit_callbacks(execute=True):
            _step(dana, table, prefer=None)
        prompt = Prompt.objects.filter(learner=dana, kind="card", status=PromptStatus.OPEN).first()
        if prompt is None:
            if table.status != "playing":
                break
            continue
        solution = eng.card_question(prompt.card, table.options).solution
        for where, shown, page in _pages(client, table, [prompt]):
            found = leaks(page, shown, card_ids=_card_ids(table), solution=solution)
            problems += [f"{where}: {p}" for p in found]
        _expire([prompt])
        checked += 1
        if checked == 3:
            break
    assert checked, "no card question in a game"
    assert not problems, "\n".join(problems)


QUIZ_PAIRS = [(k, s) for k in ("shi", "tsu", "ki", "sa", "ho") for s in ("hiragana", "katakana")]


@pytest.mark.parametrize("answer", ["right", "wrong"])
def test_the_quiz_page_gives_no_answer(dana, monkeypatch, answer):
    """Every question of a run after the feedback of the one before (a wrong answer shows
    strokes and a listen button): the page holds no way to the current answer."""
    client = Client()
    client.force_login(dana)
    monkeypatch.setattr(quiz_service, "quiz_kana_for", lambda **kwargs: list(QUIZ_PAIRS))
    quiz_service.quiz_start(learner=dana)
    page = client.get("/learn/quiz/").content.decode()
    problems = []
    while True:
        question = quiz_service.quiz_current(learner=dana)
        if question is None:
            break
        problems += [
            f"{question.kana_id}/{question.script}: {p}"
            for p in leaks(page, question, card_ids=set())
        ]
        values = re.findall(r'name="answer" value="([^"]*)"', page)
        if not question.choices:  # typed
            choice = question.kana_id if answer == "right" else "x"
        elif answer == "right":
            choice = question.kana_id
        else:
            choice = next(k for k in question.choices if k != question.kana_id)
        given = values[question.choices.index(choice)] if values and question.choices else choice
        response = client.post(
            "/learn/quiz/",
            {"action": "answer", "prompt": question.pk, "answer": given},
            follow=True,
        )
        assert response.status_code == 200
        page = response.content.decode()
    assert not problems, "\n".join(problems)


def test_two_questions_in_a_row_never_share_a_reading(dana, monkeypatch):
    """Even when the run has nothing else to put between them (し and シ alone)."""
    pairs = [("shi", "hiragana"), ("shi", "katakana")]
    monkeypatch.setattr(quiz_service, "quiz_kana_for", lambda **kwargs: list(pairs))
    made = quiz_service.quiz_start(learner=dana)
    readings = [kana_table.info(p.kana_id, p.script).romaji for p in made]
    assert all(a != b for a, b in zip(readings, readings[1:], strict=False)), readings
    assert made  # the run still asks


def test_the_page_reader_finds_what_it_looks_for():
    """The detector itself, on pages that leak in each way and one that does not."""
    prompt = Prompt(kana_id="ki", script="hiragana", kind=PromptKind.GLYPH, choices=["ki", "sa"])
    question = (
        '<section id="table-prompts"><fieldset>Which kana is “ki”?'
        '<button name="answer" value="{a}">き</button><button name="answer" value="{b}">さ</button>'
        "</fieldset></section>"
    )
    clean = (
        question.format(a="c1", b="c2")
        + '<ol class="log-list"><li>You asked CPU 2 for a card.</li></ol>'
    )
    assert leaks(clean, prompt, card_ids={"ki"}, asked=True) == []
    assert leaks(question.format(a="ki", b="sa"), prompt, card_ids=set())
    assert leaks(clean + "<p>き (KI)</p>", prompt, card_ids=set())
    assert leaks(clean + '<span data-card="ki"></span>', prompt, card_ids={"ki"})
    assert leaks(clean + '<p class="family-title">KA</p>', prompt, card_ids=set())
    assert leaks(clean + '<button data-say="きつね"></button>', prompt, card_ids=set())
    log = '<ol class="log-list"><li>You asked for <span lang="ja">き</span>.</li></ol>'
    assert leaks(clean + log, prompt, card_ids=set(), asked=True)
    assert leaks(clean + '<button value=\'{"card":"ki","type":"ask"}\'>', prompt, card_ids={"ki"})
    assert json.dumps({"card": "ki"})  # JSON as pages embed it
    assert not leaks(
        clean + "<p>Go fish! A CPU player is playing your turn.</p>", prompt, card_ids=set()
    )
