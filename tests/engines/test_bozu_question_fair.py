"""Issue 24, LOW 5b: a Bōzu card question never gives its answer away.

The choices were the answer plus the three most common openings of second halves (ひ, あ, い),
so "the odd one out" was the answer for 68 of the 100 poems. Distractors are now drawn like
the answer: from the openings of the 100 second halves, weighted by how often each opens one.
Over all 100 poems, no rule about a choice's position, its frequency among openings, or how
often it is offered across the questions finds the answer much above chance (1 in 4).
"""

from collections import Counter

import pytest

from games.engines.bozu.data import load_poets
from games.engines.bozu.decisive import question

CHANCE_LIMIT = 0.40  # chance is 0.25; well above it means the rule gives the answer away


def _all(spelling):
    return [question(card, spelling) for card in load_poets().ids]


def _share(hits: int, total: int) -> float:
    return hits / total


@pytest.mark.parametrize("spelling", ["modern", "historical"])
def test_no_position_gives_the_answer(spelling):
    asked = _all(spelling)
    positions = Counter(q.choices.index(q.answer) for q in asked)
    for position in range(4):
        assert _share(positions[position], len(asked)) <= CHANCE_LIMIT, positions


@pytest.mark.parametrize("spelling", ["modern", "historical"])
def test_no_frequency_rule_gives_the_answer(spelling):
    asked = _all(spelling)
    openings = Counter(q.answer for q in asked)  # how often each kana opens a second half
    offered = Counter(kana for q in asked for kana in q.choices)  # across all questions

    def hits(score, pick) -> int:
        found = 0
        for q in asked:
            values = [score(kana) for kana in q.choices]
            best = pick(values)
            if values.count(best) == 1 and q.choices[values.index(best)] == q.answer:
                found += 1
        return found

    for name, score in (("openings", openings.__getitem__), ("offered", offered.__getitem__)):
        for pick in (min, max):
            share = _share(hits(score, pick), len(asked))
            assert share <= CHANCE_LIMIT, f"{pick.__name__} {name}: {share:.2f}"


@pytest.mark.parametrize("spelling", ["modern", "historical"])
def test_every_question_is_the_same_each_time_with_four_different_choices(spelling):
    for q in _all(spelling):
        assert q == question(q.card, spelling)
        assert q.answer in q.choices and len(set(q.choices)) == 4
