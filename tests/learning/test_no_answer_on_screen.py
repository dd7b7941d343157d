"""No question is ever asked with its answer on screen.

Every prompt kind (reading, glyph, typed) is rendered on the board of every registered
engine (``ENGINES``: a new game joins this test by registering), with the table's romaji
option at its most generous ("always"), and the page's visible text is searched for the
expected reading outside the question itself. Card questions (engines with a
``card_question``) are made by the real hook and checked for their solution too. The quiz
(which the daily warm-up runs) is checked the same way, feedback of the previous question
included.
"""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import ENGINES, action_key, get_engine
from games.models import Table
from games.services.play import table_engine_state, table_play
from games.services.tables import table_create
from games.views.common import new_token
from learning import kana_table
from learning.models import CardSighting, Prompt
from learning.models.memory import PromptKind, PromptStatus
from learning.services import quiz as quiz_service
from learning.services.play import prompt_choices

# Committed transactions, as on the site: CPU seats reply after the commit of a deal or move
# (``transaction.on_commit``), and a test transaction that never commits would leave every
# table on a CPU's turn.
pytestmark = pytest.mark.django_db(transaction=True)

SKIPPED = {"script", "style", "template"}


class VisibleText(HTMLParser):
    """Text a person can see or hear: text nodes, ``alt``, ``title``, ``aria-label``, and
    the values of visible inputs; not scripts, styles, hidden inputs or ``hidden`` elements.
    The prompt section (``id="table-prompts"`` or ``id="quiz-card"``) is collected apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.outside: list[str] = []
        self.question: list[str] = []
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, skipped, in question)

    VOID = {"input", "br", "img", "meta", "link", "hr", "source", "area", "col", "wbr"}

    def _sink(self) -> list[str] | None:
        if any(skipped for _, skipped, _ in self.stack):
            return None
        return self.question if any(q for _, _, q in self.stack) else self.outside

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skipped = tag in SKIPPED or "hidden" in attrs or attrs.get("aria-hidden") == "true"
        question = attrs.get("id") in ("table-prompts", "quiz-card")
        if tag not in self.VOID:
            self.stack.append((tag, skipped, question))
        sink = self._sink()
        if sink is None or skipped:
            return
        for name in ("alt", "title", "aria-label"):
            if attrs.get(name):
                sink.append(attrs[name])
        if tag == "input" and attrs.get("type") not in ("hidden", "submit") and attrs.get("value"):
            sink.append(attrs["value"])

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data):
        sink = self._sink()
        if sink is not None:
            sink.append(data)


def visible(page: str) -> tuple[str, str]:
    parser = VisibleText()
    parser.feed(page)
    return " ".join(parser.outside), " ".join(parser.question)


def says(text: str, romaji: str) -> bool:
    """The reading as a word of its own (any case): SHI on a card, (shi) in the log."""
    return re.search(rf"(?<![a-z]){re.escape(romaji)}(?![a-z])", text, re.I) is not None


def words(text: str) -> set[str]:
    """The latin words of a text, lower case."""
    return set(re.findall(r"[a-zāēīōū]+", text.lower()))


def _table(user, engine: str, **more) -> Table:
    eng = get_engine(engine)
    players = max(eng.MIN_PLAYERS, min(4, eng.MAX_PLAYERS))  # four where the game allows
    seats = [{"kind": "human", "user": user}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    options = {"romaji": "always", "prompts": "every", **more}
    if engine == "bozu":  # the learner must stay in to see poets: Semimaru skips, not eliminates
        options["semimaru"] = "skip"
    return table_create(user=user, engine=engine, options=options, seats=seats)


def _page(client: Client, table: Table) -> str:
    response = client.get(f"/play/t/{table.code}/")
    assert response.status_code == 200
    return response.content.decode()


def _always_and_never(client: Client, table: Table) -> tuple[str, str]:
    """The board's visible text (no question open) with romaji "always", then "never"."""
    outside_always, _ = visible(_page(client, table))
    table.options = {**table.options, "romaji": "never"}
    table.save(update_fields=["options"])
    outside_never, _ = visible(_page(client, table))
    table.options = {**table.options, "romaji": "always"}
    table.save(update_fields=["options"])
    return outside_always, outside_never


def _play_first_legal_action(user, table: Table) -> None:
    """The learner's first legal action when it is its turn (seat 0); the CPU seats reply."""
    table.refresh_from_db()
    eng, state = table_engine_state(table=table)
    if 0 in eng.to_act(state):
        key = action_key(eng.legal_actions(state, 0)[0])
        table_play(table=table, user=user, version=table.version, token=new_token(), key=key)
    table.refresh_from_db()


def _close_prompts(user) -> None:
    Prompt.objects.filter(learner=user, status=PromptStatus.OPEN).update(
        status=PromptStatus.EXPIRED
    )


def _leaking(pairs, outside_always: str, outside_never: str, romaji_only: set[str]) -> list:
    def on_board(reading: str) -> bool:
        return says(outside_always, reading) or any(w.startswith(reading) for w in romaji_only)

    return [
        (k, s)
        for k, s in pairs
        if on_board(kana_table.info(k, s).romaji)
        and not says(outside_never, kana_table.info(k, s).romaji)
    ] or [  # readings printed only inside words (Yokai's family names: "kitsune")
        (k, s)
        for k, s in pairs
        if any(kana_table.info(k, s).romaji in word for word in romaji_only)
        and not says(outside_never, kana_table.info(k, s).romaji)
    ]


def test_the_cpu_seats_play_here_as_they_do_on_the_site(dana):
    """The boards these tests read move on as a player's would: CPU seats that play first
    have played when the table is created, and once the learner is out (Semimaru) the CPU
    seats play on to the end. (They reply after the commit of the deal or move: a test whose
    transaction never commits would find the table still on "CPU 1 is playing.")"""
    client = Client()
    client.force_login(dana)
    nobles, semimaru = ["p003", "p004", "p005"], "p010"
    rest = [card for card in get_engine("bozu").deck(None) if card not in [*nobles, semimaru]]
    setup = {"hands": [[]] * 4, "pile": [*nobles, semimaru, *rest], "table": [], "first": 1}
    seats = [{"kind": "human", "user": dana}] + [{"kind": "bot", "level": "easy"}] * 3
    options = {"prompts": "every", "setup": setup}
    table = table_create(user=dana, engine="bozu", options=options, seats=seats)
    table.refresh_from_db()
    assert table.version == 3 and "Your turn." in _page(client, table)  # CPUs 1-3 played
    _play_first_legal_action(dana, table)  # the learner turns Semimaru over: out
    assert table.status == "finished" and "Game over." in _page(client, table)
    assert not table.moves.filter(version__gt=4, by_bot=False).exists()


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("kind", [PromptKind.READING, PromptKind.GLYPH, PromptKind.TYPED])
def test_a_prompt_never_shows_its_answer_on_the_board(dana, engine, kind):
    client = Client()
    client.force_login(dana)
    table = _table(dana, engine)
    _close_prompts(dana)
    # the kana whose reading the board prints with romaji on (on the learner's cards, the
    # table, the log), and which no other text of the page happens to contain
    script = table.options.get("script", "hiragana")
    scripts = ("hiragana", "katakana") if script == "mixed" else (script,)
    pairs = sorted(pair for pair in kana_table.catalog() if pair[1] in scripts)
    # A game may print no reading at the deal: Yokai deals face down (a peek shows one), Bozu
    # Mekuri turns its first poet over on a move (and a monk may take it away again).
    for _turn in range(40):
        outside_always, outside_never = _always_and_never(client, table)
        # words the board prints only with romaji on: readings (Kazoku: SHI) or whole words
        # whose first syllable is a reading (Koi-Koi's plant names: matsu, sakura)
        romaji_only = words(outside_always) - words(outside_never)
        leaking = _leaking(pairs, outside_always, outside_never, romaji_only)
        if leaking:
            break
        _play_first_legal_action(dana, table)
        _close_prompts(dana)
    assert leaking, f"{engine}: no reading printed on the board to test with"
    for kana_id, script in leaking:
        romaji = kana_table.info(kana_id, script).romaji
        now = timezone.now()
        prompt = Prompt.objects.create(
            learner=dana,
            source="prompt",
            table_id=table.pk,
            kind=kind,
            kana_id=kana_id,
            script=script,
            choices=prompt_choices(
                kana_id=kana_id, script=script, learned=[], rng=__import__("random").Random(1)
            ),  # fmt: skip
            shown_at=now,
            expires_at=now + timedelta(minutes=2),
        )
        outside, question = visible(_page(client, table))
        assert not says(outside, romaji), f"{engine}/{kind}: {romaji} on the board"
        assert not words(outside) & romaji_only, f"{engine}/{kind}: romaji on the board"
        if kind == PromptKind.TYPED:
            assert not says(question, romaji)
        elif kind == PromptKind.READING:  # one button among four, nothing else
            assert len(re.findall(rf"(?<![a-z]){romaji}(?![a-z])", question, re.I)) == 1
        else:  # the question names the reading; the glyph buttons carry no romaji
            assert f"“{romaji}”" in question
            assert len(re.findall(rf"(?<![a-z]){romaji}(?![a-z])", question, re.I)) == 1
        prompt.delete()


QUIZ_PAIRS = [(k, s) for k in ("shi", "tsu", "chi", "ka", "ki") for s in ("hiragana", "katakana")]


@pytest.mark.parametrize("answer", ["right", "wrong"])
def test_the_quiz_never_shows_the_answer_of_the_current_question(dana, monkeypatch, answer):
    """Every question of a run, each after the feedback of the previous one (a run asks
    both scripts: the feedback "し is shi" must not sit above a question on シ, nor "you
    answered tsu" above a question on つ)."""
    client = Client()
    client.force_login(dana)
    # kana of both scripts due together, look-alikes among them (so among the choices)
    monkeypatch.setattr(quiz_service, "quiz_kana_for", lambda **kwargs: list(QUIZ_PAIRS))
    quiz_service.quiz_start(learner=dana)
    questions = list(Prompt.objects.filter(learner=dana, source="quiz").order_by("id"))
    assert len(questions) == quiz_service.QUIZ_LENGTH
    page = client.get("/learn/quiz/").content.decode()
    for index, question in enumerate(questions):
        romaji = kana_table.info(question.kana_id, question.script).romaji
        outside, asked = visible(page)
        assert not says(outside, romaji), f"question {index}: {romaji} outside the question"
        count = len(re.findall(rf"(?<![a-z]){romaji}(?![a-z])", asked, re.I))
        if question.kind == PromptKind.READING:
            assert count == 1  # its own button among four
        else:
            assert count == 1 and f"“{romaji}”" in asked  # named by the glyph question
        given = (
            question.kana_id
            if answer == "right"
            else next(k for k in question.choices if k != question.kana_id)
        )
        response = client.post(
            "/learn/quiz/", {"action": "answer", "prompt": question.pk, "answer": given},
            follow=True,
        )  # fmt: skip
        assert response.status_code == 200
        page = response.content.decode()


def test_quiz_runs_never_put_one_reading_twice_in_a_row(dana):
    pairs = [("shi", "hiragana"), ("shi", "katakana"), ("ka", "hiragana"), ("ka", "katakana")]
    ordered = quiz_service._apart(pairs)
    assert sorted(ordered) == sorted(pairs)
    readings = [kana_table.info(*p).romaji for p in ordered]
    assert all(a != b for a, b in zip(readings, readings[1:], strict=False))


@pytest.mark.parametrize("htmx", [True, False])
def test_table_feedback_never_answers_the_next_question(dana, htmx):
    """し answered, シ asked next at the same table: the feedback says right, not "shi"."""
    client = Client()
    client.force_login(dana)
    table = _table(dana, "kazoku-families")
    _close_prompts(dana)
    now = timezone.now()
    made = [
        Prompt.objects.create(
            learner=dana,
            source="prompt",
            table_id=table.pk,
            kind=PromptKind.READING,
            kana_id="shi",
            script=script,
            choices=["shi", "tsu", "so", "n"],
            shown_at=now + timedelta(seconds=index),
            expires_at=now + timedelta(minutes=2),
        )  # fmt: skip
        for index, script in enumerate(("hiragana", "katakana"))
    ]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(
        f"/learn/prompts/{made[0].pk}/answer/",
        {"answer": "shi", "table_id": table.pk, "next": f"/play/t/{table.code}/"},
        follow=not htmx,
        **headers,
    )
    assert response.status_code == 200
    outside, question = visible(response.content.decode())
    assert "Right" in outside + question
    assert not says(outside, "shi")
    assert len(re.findall(r"(?<![a-z])shi(?![a-z])", question, re.I)) == 1  # its button


CARD_ENGINES = sorted(name for name in ENGINES if get_engine(name).asks_about_cards)


@pytest.mark.parametrize("engine", CARD_ENGINES)
def test_a_card_question_never_shows_its_answer_on_the_board(
    dana, engine, django_capture_on_commit_callbacks
):
    """Questions about known cards (``card_question``; a new game asking them joins here), made
    by the real learning hook at a table with romaji "always": while one is open, the page
    never shows its solution (Bozu: the poem's second half), nor the reading of its answer,
    nor the answer's glyph standing alone outside the question; inside the question the
    answer is one glyph button among the choices, with no reading."""
    eng = get_engine(engine)
    client = Client()
    client.force_login(dana)
    with django_capture_on_commit_callbacks(execute=True):
        table = _table(dana, engine, card_prompts=True, prompts="off")
    deck = eng.deck(eng.from_json(table.state))
    CardSighting.objects.bulk_create(  # every card already seen often enough
        [CardSighting(learner=dana, engine=engine, card=card) for card in set(deck)],
        ignore_conflicts=True,  # the CPU may have played first
    )
    CardSighting.objects.filter(learner=dana).update(seen=20)
    checked = 0
    for _turn in range(200):
        with django_capture_on_commit_callbacks(execute=True):
            _play_first_legal_action(dana, table)
        prompt = Prompt.objects.filter(learner=dana, kind="card", status=PromptStatus.OPEN).first()
        if prompt is None:
            if table.status == "finished":
                break
            continue
        question = eng.card_question(prompt.card, table.options)
        page = _page(client, table)
        parser = VisibleText()
        parser.feed(page)
        outside, asked = " ".join(parser.outside), " ".join(parser.question)
        for text in (question.solution, question.solution.replace(" ", "")):
            assert text not in page, f"{engine}: the solution of {prompt.card} on the page"
        assert question.solution.split()[0] not in outside + asked
        kana = kana_table.info(question.answer, question.script)
        assert not says(asked.replace(_(question.ask), ""), kana.romaji)
        assert kana.glyph not in {text.strip() for text in parser.outside}
        assert question.clue in asked and _(question.ask) in asked
        buttons = re.findall(r'name="answer" value="([^"]+)"[^>]*>([^<]*)</button>', page)
        # each button posts its position among the choices (a kana id would be a reading)
        chosen = [
            label for value, label in buttons if prompt.choices[int(value)] == question.answer
        ]
        assert chosen == [kana.glyph]
        assert all(not re.search("[a-z]", label) for _value, label in buttons)
        # the reading is not on the board either: only where it is a word of the page itself
        # (the English "a"), never where romaji print it (compared without the question)
        Prompt.objects.filter(pk=prompt.pk).update(status=PromptStatus.EXPIRED)
        outside_always, outside_never = _always_and_never(client, table)
        assert not says(outside, kana.romaji) or says(outside_never, kana.romaji)
        assert not words(outside) & (words(outside_always) - words(outside_never))
        checked += 1
        if checked == 5:
            break
    assert checked == 5, f"{engine}: only {checked} card questions asked in the game"
