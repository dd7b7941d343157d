"""Stroke order: every kana of the catalog has its KanjiVG drawing with the right number of
strokes, and the learner's kana page, the quiz feedback and the teacher's kana page show it."""

import re
import unicodedata

import pytest

from learning import kana_table
from learning.strokes import NoDrawing, strokes_of

# Stroke counts as school charts teach them (the 46 basic kana, gojūon order), written here
# independently of KanjiVG; a voiced kana adds the two ticks of its dakuten, a p-kana the
# circle of its handakuten.
BASIC_STROKES = {  # a i u e o, ka ki ku ke ko, ..., wa wo n
    "hiragana": "32223 34132 31231 42112 43221 31414 32323 322 22121 23 1",
    "katakana": "22333 23232 33222 33332 22241 22114 23223 223 22213 23 2",
}
MARKS = {"\u3099": 2, "\u309a": 1}  # combining dakuten, handakuten


def expected_strokes(kana) -> int:
    basic = kana_table.kana_ids(kana.script, basic_only=True)
    base, *mark = unicodedata.normalize("NFD", kana.glyph)
    base_id = next(k for k in basic if kana_table.info(k, kana.script).glyph == base)
    count = int(BASIC_STROKES[kana.script].replace(" ", "")[basic.index(base_id)])
    return count + sum(MARKS[m] for m in mark)


def test_every_kana_of_the_catalog_has_its_drawing_with_the_right_stroke_count():
    catalog = kana_table.catalog()
    assert len(catalog) == 142
    for kana in catalog.values():
        strokes = strokes_of(kana.glyph)
        assert strokes.count == expected_strokes(kana), kana.glyph
        assert len(strokes.numbers) == strokes.count, kana.glyph  # one number per stroke
        assert all(path.startswith(("M", "m")) for path in strokes.paths), kana.glyph


def test_a_character_without_drawing_is_refused_clearly():
    with pytest.raises(NoDrawing):
        strokes_of("ab")
    with pytest.raises(NoDrawing):
        strokes_of("\U0001f600")


def drawn_strokes(html: str) -> int:
    return len(re.findall(r'<path class="stroke stroke-\d+" pathLength="1"', html))


@pytest.mark.django_db
def test_the_learner_kana_page_animates_the_strokes_and_credits_kanjivg(client, dana):
    client.force_login(dana)
    page = client.get("/learn/kana/hiragana/ne/")
    assert page.status_code == 200
    html = page.content.decode()
    assert drawn_strokes(html) == 2 and "Stroke order of ね: 2 strokes" in html
    assert "KanjiVG" in html and "CC BY-SA 3.0" in html and 'rel="license"' in html
    assert 'data-say="ね"' in html  # the listen button
    assert "style=" not in html.split("<main", 1)[1]  # CSS only from the stylesheet (CSP)
    assert "ねこ" in html and "cat" in html  # a Kazoku word with it
    katakana = client.get("/learn/kana/katakana/ga/").content.decode()
    assert drawn_strokes(katakana) == 4 and "ネコ" not in katakana
    assert client.get("/learn/kana/hiragana/xx/").status_code == 404
    assert client.get("/learn/kana/cyrillic/a/").status_code == 404
    dashboard = client.get("/learn/").content.decode()
    assert 'href="/learn/kana/hiragana/ne/"' in dashboard  # a click on the kana grid


@pytest.mark.django_db
def test_the_quiz_shows_the_stroke_order_after_a_wrong_answer_only(client, dana):
    from factories import taught

    from learning.models import Prompt

    taught(dana)
    client.force_login(dana)
    client.post("/learn/quiz/", {"action": "start"})
    prompts = list(Prompt.objects.filter(learner=dana, source="quiz").order_by("pk"))
    assert len(prompts) >= 2
    right, wrong = prompts[0], prompts[1]
    response = client.post(
        "/learn/quiz/", {"action": "answer", "prompt": right.pk, "answer": right.kana_id}
    )
    assert drawn_strokes(client.get(response["Location"]).content.decode()) == 0
    other = next((c for c in wrong.choices or () if c != wrong.kana_id), None)
    other = other or ("ka" if wrong.kana_id != "ka" else "sa")  # a typed answer
    response = client.post(
        "/learn/quiz/", {"action": "answer", "prompt": wrong.pk, "answer": other}
    )
    html = client.get(response["Location"]).content.decode()
    glyph = kana_table.info(wrong.kana_id, wrong.script).glyph
    assert "Not quite" in html and f"Stroke order of {glyph}" in html
    assert drawn_strokes(html) == strokes_of(glyph).count
