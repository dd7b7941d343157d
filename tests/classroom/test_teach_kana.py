"""The teacher's per-kana page: stroke order, every student's state of it, what the class
read it as; only for the class's own teacher."""

import re

import pytest

from learning.services.memory import memory_review

pytestmark = pytest.mark.django_db


def test_the_kana_page_shows_strokes_states_and_confusions(as_alice, alice_class, bob):
    memory_review(learner=bob, kana_id="nu", script="hiragana", correct=False, response_ms=3000,
                  source="quiz", confused_with="me")  # fmt: skip
    page = as_alice.get(f"/teach/{alice_class.pk}/kana/hiragana/nu/")
    assert page.status_code == 200
    html = page.content.decode()
    assert len(re.findall(r'<path class="stroke stroke-\d+"', html)) == 2
    assert "KanjiVG" in html and "CC BY-SA 3.0" in html
    assert "Bob" in html and '<td class="st st-learning">◐ learning</td>' in html
    assert '<span lang="ja">め</span> (me) — 1 time' in html
    dashboard = as_alice.get(f"/teach/{alice_class.pk}/?script=hiragana").content.decode()
    assert f'href="/teach/{alice_class.pk}/kana/hiragana/nu/"' in dashboard


def test_other_teachers_and_unknown_kana_get_404(as_dave, alice_class, client, alice, dave_class):
    assert as_dave.get(f"/teach/{alice_class.pk}/kana/hiragana/nu/").status_code == 404
    assert as_dave.get(f"/teach/{dave_class.pk}/kana/hiragana/zz/").status_code == 404
    assert as_dave.get(f"/teach/{dave_class.pk}/kana/katakana/nu/").status_code == 200


def test_students_may_not_open_it(as_bob, alice_class):
    assert as_bob.get(f"/teach/{alice_class.pk}/kana/hiragana/nu/").status_code == 403
