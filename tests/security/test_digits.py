"""Issue 24, MEDIUM 4: no 500 from a digit.

"²".isdigit() is true and int("²") fails; "٣" and "１" are digits int() reads; a 30-digit id
overflows SQLite's integers in a hand-written query. Every id and number a view reads from a
request goes through ``games.params``: ASCII digits, at most 18, else 400.
"""

import pytest
from django.urls import reverse
from factories import solo_kazoku_table

from games.engines import ENGINES
from games.params import BadParam, id_param, optional_id_param

BAD_NUMBERS = ["²", "٣", "１", "１２", "9" * 30, "-1", "1.0", " 1", "1\n", "+1", "0x1", "1e3"]


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_the_helper_refuses_anything_but_ascii_digits(raw):
    with pytest.raises(BadParam):
        id_param(raw)


def test_the_helper_reads_ascii_digits():
    assert id_param("0") == 0 and id_param("123") == 123 and id_param("9" * 18) == 10**18 - 1
    assert optional_id_param("") is None and optional_id_param(None) is None


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_the_quiz_refuses_a_bad_last_and_prompt(as_bob, raw):
    assert as_bob.get(reverse("learn:quiz"), {"last": raw}).status_code == 400
    response = as_bob.post(
        reverse("learn:quiz"), {"action": "answer", "prompt": raw, "answer": "ka"}
    )
    assert response.status_code == 400


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_the_prompt_answer_refuses_a_bad_table_id(as_bob, bob, raw):
    solo_kazoku_table(bob)
    url = reverse("learn:prompt_answer", args=[10**12])
    response = as_bob.post(url, {"answer": "ka", "table_id": raw}, HTTP_HX_REQUEST="true")
    assert response.status_code in (400, 404)
    assert response.status_code != 500


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("raw", ["²", "٣", "１", "9" * 30])
def test_a_new_table_refuses_a_bad_assignment(as_bob, engine, raw):
    url = f"/assignments/{raw}/new/{engine}/"  # the classroom's form for an assignment's table
    assert as_bob.get(url).status_code in (400, 404)
    assert as_bob.post(url, {}).status_code in (400, 404)


@pytest.mark.parametrize("raw", BAD_NUMBERS)
def test_the_daily_goal_refuses_a_bad_value(client, dana, raw):
    client.force_login(dana)
    response = client.post(reverse("learn:daily"), {"action": "goal", "goal_kind": "reviews",
                                              "goal_value": raw})  # fmt: skip
    assert response.status_code == 400
