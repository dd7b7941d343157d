"""Questions about the cards a learner knows (Bōzu Mekuri: the first kana of a poem's second
half), through HTTP: sightings counted, the question asked after ``after_seen`` sightings
with the table option on, graded like every prompt, never shown to anyone else.

Stacked decks put a known poem on top of the pile; the learner's earlier games are
``CardSightingFactory`` rows. The poems' text is checked against the shared data file.
"""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone, translation
from factories import CardSightingFactory

from games.engines import get_engine
from games.engines.bozu import KANA_ID, load_poets
from games.engines.bozu.data import DATA_PATH
from games.models import Table
from games.services.tables import table_create
from games.tokens import action_token
from learning import kana_table, selectors, srs
from learning.models import CardSighting, KanaMemory, LearningEvent, Prompt
from learning.services.cards import sightings_for
from learning.services.memory import memory_review
from learning.services.play import confusions_for

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}
DRAW = '{"type":"draw"}'
SHARED = Path("/work/shared/data/hyakunin_isshu.json")
HITOMARO, AKAHITO, SARUMARU, HENJO = "p003", "p004", "p005", "p012"  # nobles, then a monk
ASKED = "Which kana begins the second half of this poem?"


def poems() -> dict[str, dict]:
    """The 100 poems by card id, from the shared data file (the fixture where it is absent)."""
    path = SHARED if SHARED.exists() else DATA_PATH
    rows = json.loads(path.read_text(encoding="utf-8"))
    return {f"p{row['number']:03d}": row for row in rows}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stacked(pile_top: list[str], players: int = 2) -> dict:
    """``pile_top`` turned over first, then nobles (calm games), then the rest of the deck."""
    cards = load_poets().cards
    rest = sorted(c for c in cards if c not in pile_top)
    rest.sort(key=lambda c: cards[c].category != "noble" or cards[c].emperor)
    return {"hands": [[]] * players, "pile": [*pile_top, *rest], "table": [], "first": 0}


def bozu_table(user, *, pile_top, others=(), bots=1, classroom=None, **options) -> Table:
    seats = [{"kind": "human", "user": user}, *({"kind": "human", "user": o} for o in others)]
    seats += [{"kind": "bot", "level": "easy"}] * bots
    options = {"prompts": "off", "romaji": "always", "card_prompts": True, **options}
    options["setup"] = stacked(pile_top, players=len(seats))
    return table_create(user=user, engine="bozu", options=options, seats=seats, classroom=classroom)


def page_of(client: Client, table: Table) -> str:
    response = client.get(f"/play/t/{table.code}/")
    assert response.status_code == 200
    return response.content.decode()


def draw(client: Client, table: Table) -> None:
    """The seat's "turn over the top card", as its page offers it."""
    page = page_of(client, table)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    offered = html.unescape(re.search(r'name="action" value="([^"]+)"', page).group(1))
    assert offered == action_token(table.pk, DRAW)  # opaque: no card id in the page
    data = {"version": version, "token": token, "action": offered}
    assert client.post(f"/play/t/{table.code}/", data).status_code == 302


def question_section(page: str) -> str:
    found = re.search(r'<section id="table-prompts".*?</section>', page, re.S)
    return found.group(0) if found else ""


def answer(client: Client, prompt: Prompt, given: str, *, htmx: bool = True, table_id=None):
    table_id = prompt.table_id if table_id is None else table_id
    data = {"answer": given, "table_id": table_id, "next": "/play/"}
    return client.post(f"/learn/prompts/{prompt.pk}/answer/", data, **(HX if htmx else {}))


def card_prompts(user) -> list[Prompt]:
    return list(Prompt.objects.filter(learner=user, kind="card").order_by("id"))


# --- the question ------------------------------------------------------------------------------


def test_a_poem_seen_three_times_before_is_asked_about_when_it_is_turned_over(dana):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=3)
    table = bozu_table(dana, pile_top=[HITOMARO, AKAHITO])
    client = client_for(dana)
    draw(client, table)  # dana turns over Hitomaro; the CPU then turns over Akahito
    assert sightings_for(learner=dana, engine="bozu") == {HITOMARO: 4, AKAHITO: 1}
    [prompt] = card_prompts(dana)
    poem = poems()[HITOMARO]
    first = poem["shimo_no_ku_yomi"][0]  # ながながしよを…: な
    assert (prompt.card, prompt.kana_id, prompt.script) == (HITOMARO, KANA_ID[first], "hiragana")
    assert prompt.detail["clue"] == poem["kami_no_ku_yomi"]
    page = page_of(client, table)
    asked = question_section(page)
    assert ASKED in asked and poem["kami_no_ku_yomi"] in asked
    buttons = re.findall(r'name="answer" value="([^"]+)"[^>]*>([^<]*)</button>', asked)
    # each button posts its position among the choices, never a kana id (a reading)
    assert [value for value, _glyph in buttons] == ["0", "1", "2", "3"]
    assert [glyph for _value, glyph in buttons] == [
        kana_table.info(k, "hiragana").glyph for k in prompt.choices
    ]
    # the answer is nowhere on the page: neither the second half nor its reading
    for text in (poem["shimo_no_ku_yomi"], poem["shimo_no_ku_kana"], poem["shimo_no_ku"]):
        assert text.split()[0] not in page
    assert "Kakinomoto no Hitomaro" not in page  # romaji off while a question is open


def test_a_right_answer_is_graded_with_its_prediction_and_reviews_the_kana(dana):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=5)
    table = bozu_table(dana, pile_top=[HITOMARO])
    client = client_for(dana)
    draw(client, table)
    [prompt] = card_prompts(dana)
    page_of(client, table)  # displayed: the response time runs from here
    response = answer(client, prompt, "na")
    assert response.status_code == 200
    said = response.content.decode()
    assert "Right: it begins with な (na)." in said
    assert poems()[HITOMARO]["shimo_no_ku_yomi"] in said  # now the second half is shown
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.kana_id, event.script, event.correct, event.answer_kind) == (
        "na",
        "hiragana",
        True,
        "card",
    )
    assert event.confused_with == "" and event.table_id == table.pk
    assert event.response_ms is not None
    # P(correct) before the answer, like every pick among k choices: R + (1 - R) / k
    expected = srs.predict(
        scheduler=srs.scheduler_build(fuzzing=False), card=None, now=event.created_at, choices=4
    )
    assert event.predicted == pytest.approx(expected)
    assert expected == pytest.approx(srs.UNSEEN_RECALL + (1 - srs.UNSEEN_RECALL) / 4)
    memory = KanaMemory.objects.get(learner=dana, kana_id="na", script="hiragana")
    assert memory.reps == 1 and memory.errors == 0 and memory.due is not None
    # a second click on the same question (double submit) changes nothing
    again = answer(client, prompt, "na")
    assert again.status_code == 409
    assert LearningEvent.objects.filter(learner=dana, kind="answer").count() == 1
    assert KanaMemory.objects.get(pk=memory.pk).reps == 1


def test_the_prediction_uses_the_kanas_memory_when_there_is_one(dana):
    """な answered right in the quiz two days ago: P(correct) is its recall now, plus the
    chance of a lucky pick among the four glyphs."""
    two_days_ago = timezone.now() - timedelta(days=2)
    row = memory_review(
        learner=dana,
        kana_id="na",
        script="hiragana",
        correct=True,
        response_ms=1500,
        source="quiz",
        at=two_days_ago,
        answer_kind="typed",
    )
    CardSightingFactory(learner=dana, card=HITOMARO, seen=3)
    table = bozu_table(dana, pile_top=[HITOMARO])
    client = client_for(dana)
    draw(client, table)
    [prompt] = card_prompts(dana)
    answer(client, prompt, "na")
    event = LearningEvent.objects.get(learner=dana, answer_kind="card")
    scheduler = srs.scheduler_build(fuzzing=False)
    card = srs.card_from_json(row.card)
    recall = srs.predicted_recall(scheduler=scheduler, card=card, now=event.created_at)
    assert 0.5 < recall < 0.99
    # the prediction of a pick among buttons at a table (issue 27: calibrated per kind)
    assert event.predicted == pytest.approx(
        srs.predict(
            scheduler=scheduler,
            card=card,
            now=event.created_at,
            choices=4,
            kind="card",
            source="prompt",
        )  # fmt: skip
    )
    bare = dict.fromkeys(srs.PREDICTION_CALIBRATION, srs.IDENTITY_CALIBRATION)
    uncalibrated = srs.predict(scheduler=scheduler, card=card, now=event.created_at, choices=4,
                               kind="card", source="prompt", calibration=bare)  # fmt: skip
    assert uncalibrated == pytest.approx(recall + (1 - recall) / 4)


@pytest.mark.parametrize("htmx", [True, False])
def test_a_wrong_answer_is_recorded_with_what_was_picked(dana, htmx):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=3)
    table = bozu_table(dana, pile_top=[HITOMARO])
    client = client_for(dana)
    draw(client, table)
    [prompt] = card_prompts(dana)
    wrong = next(kana for kana in prompt.choices if kana != "na")
    response = answer(client, prompt, wrong, htmx=htmx)
    if not htmx:  # back to the board, the feedback as a message
        assert response.status_code == 302 and response["Location"] == "/play/"
        response = client.get(f"/play/t/{table.code}/")
    said = response.content.decode()
    glyph = kana_table.info(wrong, "hiragana").glyph
    assert f"Not quite: it begins with な (na), not {glyph}." in said
    assert poems()[HITOMARO]["shimo_no_ku_yomi"] in said
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.kana_id, event.correct, event.confused_with) == ("na", False, wrong)
    memory = KanaMemory.objects.get(learner=dana, kana_id="na", script="hiragana")
    assert memory.reps == 1 and memory.errors == 1
    # a poem misremembered is no confusion of two glyphs: distractors and dashboards skip it
    assert confusions_for(learner=dana, pairs=[("na", "hiragana")]) == {}
    assert selectors.confusions_for(learner=dana) == []
    assert not LearningEvent.objects.confusions().exists()


def test_forged_stale_and_foreign_answers_are_refused_without_change(dana, charlie):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=3)
    table = bozu_table(dana, pile_top=[HITOMARO])
    client = client_for(dana)
    draw(client, table)
    [prompt] = card_prompts(dana)
    # not among the choices, a reading instead of a choice, empty, junk: 400
    outside = next(k for k in ("ka", "ki", "ku", "ke") if k not in prompt.choices)
    for forged in (outside, "NA", "", "な", "x" * 500, "../../"):
        for htmx in (True, False):
            response = answer(client, prompt, forged, htmx=htmx)
            assert response.status_code == 400, forged
    # somebody else's question: 404, as if it did not exist; an unknown id too
    assert answer(client_for(charlie), prompt, "na").status_code == 404
    assert client.post("/learn/prompts/999999/answer/", {"answer": "na"}).status_code == 404
    # a forged table id changes nothing either
    assert answer(client, prompt, outside, table_id=424242).status_code == 400
    prompt.refresh_from_db()
    assert prompt.status == "open" and prompt.answered_at is None
    assert not LearningEvent.objects.filter(kind="answer").exists()
    assert not KanaMemory.objects.filter(learner=dana, reps__gt=0).exists()
    # expired (a stale page answered late): 409, and it stays unanswered
    Prompt.objects.filter(pk=prompt.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert answer(client, prompt, "na").status_code == 409
    prompt.refresh_from_db()
    assert prompt.status == "expired" and not LearningEvent.objects.filter(kind="answer").exists()


# --- when it is asked, and when not ------------------------------------------------------------


def test_with_the_option_off_nothing_is_asked_but_sightings_still_count(dana):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=7)
    table = bozu_table(dana, pile_top=[HITOMARO], card_prompts=False)
    client = client_for(dana)
    draw(client, table)
    assert card_prompts(dana) == []
    assert 'id="table-prompts"' not in page_of(client, table)
    assert sightings_for(learner=dana, engine="bozu", cards=[HITOMARO]) == {HITOMARO: 8}


def test_the_option_is_off_by_default(dana):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=7)
    table = table_create(
        user=dana,
        engine="bozu",
        options={"prompts": "off", "setup": stacked([HITOMARO])},
        seats=[{"kind": "human", "user": dana}, {"kind": "bot", "level": "easy"}],
    )
    assert table.options["card_prompts"] is False
    draw(client_for(dana), table)
    assert card_prompts(dana) == []


def test_a_poem_seen_fewer_times_is_not_asked_yet(dana):
    CardSightingFactory(learner=dana, card=HITOMARO, seen=2)  # the third sighting is now
    table = bozu_table(dana, pile_top=[HITOMARO, AKAHITO])
    draw(client_for(dana), table)
    assert card_prompts(dana) == []
    assert sightings_for(learner=dana, engine="bozu") == {HITOMARO: 3, AKAHITO: 1}


def test_cards_turned_over_by_other_players_count_and_one_question_waits_at_a_time(dana):
    """The CPU's cards are in the learner's view too; a second known card turned over while
    a card question is open is not asked (one at a time)."""
    for card in (AKAHITO, SARUMARU):
        CardSightingFactory(learner=dana, card=card, seen=3)
    table = bozu_table(dana, pile_top=[HITOMARO, AKAHITO], bots=1)
    client = client_for(dana)
    draw(client, table)  # Hitomaro (unknown) by dana, Akahito (known) by the CPU
    assert [p.card for p in card_prompts(dana)] == [AKAHITO]
    draw(client, table)  # Sarumaru (known) by dana: not asked while Akahito's question waits
    assert sightings_for(learner=dana, engine="bozu", cards=[SARUMARU]) == {SARUMARU: 4}
    assert [p.card for p in card_prompts(dana)] == [AKAHITO]  # still the only one


def test_the_historical_spelling_asks_in_the_spelling_of_the_cards(dana):
    CardSightingFactory(learner=dana, card=HENJO, seen=3)
    table = bozu_table(dana, pile_top=[HENJO], spelling="historical")
    client = client_for(dana)
    draw(client, table)
    [prompt] = card_prompts(dana)
    poem = poems()[HENJO]  # をとめのすがた (historical) / おとめのすがた (modern)
    assert prompt.detail["clue"] == poem["kami_no_ku_kana"]
    assert prompt.kana_id == KANA_ID[poem["shimo_no_ku_kana"][0]] == "wo"
    assert poem["kami_no_ku_kana"] in question_section(page_of(client, table))
    said = answer(client, prompt, "wo").content.decode()
    assert "Right: it begins with を (wo)." in said and poem["shimo_no_ku_kana"] in said


def test_the_question_is_only_for_the_learner_who_knows_the_card(bob, erin, alice, alice_class):
    """bob knows Hitomaro, erin does not: bob is asked, erin is not, the teacher watching sees
    no question; each sighting is counted for its own learner."""
    CardSightingFactory(learner=bob, card=HITOMARO, seen=3)
    table = bozu_table(bob, others=[erin], pile_top=[HITOMARO], bots=0, classroom=alice_class)
    draw(client_for(bob), table)
    poem = poems()[HITOMARO]
    assert [p.card for p in card_prompts(bob)] == [HITOMARO] and card_prompts(erin) == []
    assert sightings_for(learner=erin, engine="bozu") == {HITOMARO: 1}
    assert ASKED in page_of(client_for(bob), table)
    for watcher in (erin, alice):
        page = page_of(client_for(watcher), table)
        assert ASKED not in page and 'id="table-prompts"' not in page
        assert poem["shimo_no_ku_yomi"].split()[0] not in page
    [prompt] = card_prompts(bob)
    assert answer(client_for(erin), prompt, "na").status_code == 404
    assert not LearningEvent.objects.filter(kind="answer").exists()


def test_teachers_playing_count_nothing(alice):
    table = bozu_table(alice, pile_top=[HITOMARO])
    draw(client_for(alice), table)
    assert not CardSighting.objects.exists() and card_prompts(alice) == []


# --- the create form --------------------------------------------------------------------------


def test_the_bozu_form_offers_the_option_unticked_and_other_games_do_not(dana):
    client = client_for(dana)
    page = client.get("/play/new/bozu/").content.decode()
    field = re.search(r'<input[^>]*name="t-card_prompts"[^>]*>', page)
    assert field and "checked" not in field.group(0)
    assert "say which kana begins its second half" in page
    assert 'name="t-card_prompts"' not in client.get("/play/new/kazoku-families/").content.decode()
    with pytest.raises(ValueError, match="asks nothing about its cards"):
        table_create(
            user=dana,
            engine="kazoku-families",
            options={"card_prompts": True},
            seats=[{"kind": "human", "user": dana}, {"kind": "bot", "level": "easy"}],
        )
    with pytest.raises(ValueError, match="true or false"):
        bozu_table(dana, pile_top=[HITOMARO], card_prompts="yes")


def test_the_bozu_form_creates_a_table_that_asks(dana):
    client = client_for(dana)
    eng = get_engine("bozu")
    fields = {f"t-{o.name}": str(o.default).lower() for o in eng.OPTIONS if o.kind != "bool"}
    fields |= {"t-allow_stop": "on", "t-romaji": "always", "t-prompts": "off", "t-timer": "0"}
    fields |= {"t-script": "hiragana", "t-card_prompts": "on", "t-seat_1": "easy"}
    response = client.post("/play/new/bozu/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(engine="bozu")
    assert table.options["card_prompts"] is True


@pytest.fixture
def language_restored():
    """The locale middleware leaves the last request's language active in this thread: tests
    run after this one must not speak Japanese."""
    yield
    translation.deactivate()


@pytest.mark.parametrize(
    "code, option, asked, right",
    [
        (
            "fr",
            "Questions sur les cartes que je connais",
            "Par quel kana commence la seconde moitié de ce poème\u00a0?",
            "Exact\u00a0: elle commence par な (na).",
        ),
        (
            "ja",
            "見覚えのある札の問題",
            "この歌の下の句は、どのかなで始まりますか？",
            "正解：な（na）で始まります。",
        ),
    ],
)
def test_the_option_and_the_question_speak_french_and_japanese(
    dana, code, option, asked, right, language_restored
):
    client = client_for(dana)
    client.post("/i18n/setlang/", {"language": code, "next": "/"})
    assert option in client.get("/play/new/bozu/").content.decode()
    CardSightingFactory(learner=dana, card=HITOMARO, seen=3)
    table = bozu_table(dana, pile_top=[HITOMARO])
    draw(client, table)
    assert asked in question_section(page_of(client, table))
    [prompt] = card_prompts(dana)
    assert right in answer(client, prompt, "na").content.decode()
