"""The engine side of the optional "second half" prompt (the karuta's decisive syllables).

Once a learner has seen a card ``PROMPT_AFTER_SEEN`` times, a prompt may show the poem's
first half and ask for the first kana of its second half, as karuta players learn them.
This module says what to ask, from the card data only: the learning app decides when (it
counts exposures) and grades. ``question(card_id, spelling)`` is deterministic: the same
card always offers the same choices.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from games.engines.bozu.data import KANA_ID, load_poets

PROMPT_AFTER_SEEN = 3
CHOICES = 4


@dataclass(frozen=True)
class SecondHalfQuestion:
    card: str
    first_half: str  # kana, in the table's spelling
    answer: str  # kana id of the first kana of the second half
    answer_glyph: str
    choices: tuple[str, ...]  # kana ids, the answer among them, in gojūon-table order


def _lower(card_id: str, spelling: str) -> str:
    poet = load_poets().cards[card_id]
    return poet.lower_kana if spelling == "historical" else poet.lower_yomi


@lru_cache(maxsize=2)
def _opening_counts(spelling: str) -> Counter:
    return Counter(KANA_ID[_lower(c, spelling)[0]] for c in load_poets().ids)


def _distractors(card_id: str, answer: str, spelling: str) -> list[str]:
    """Three other openings drawn like the answer is: weighted by how many second halves
    each opens, so no rule of frequency tells the answer from them (issue 24: the three
    most common openings made the odd one out the answer for 68 poems of 100). Seeded by the
    card: the same card always offers the same choices."""
    rng = random.Random(f"decisive:{spelling}:{card_id}")
    pool = {kana: n for kana, n in _opening_counts(spelling).items() if kana != answer}
    picked: list[str] = []
    while len(picked) < CHOICES - 1:
        kanas = sorted(pool)
        kana = rng.choices(kanas, weights=[pool[k] for k in kanas])[0]
        picked.append(kana)
        del pool[kana]
    return picked


def question(card_id: str, spelling: str = "modern") -> SecondHalfQuestion:
    """What to ask about ``card_id``: its first half, and four first kana to choose from (the
    right one and three other openings of second halves, drawn as the answer is)."""
    if card_id not in load_poets().cards:
        raise ValueError(f"there is no card {card_id!r} among the 100 poets")
    if spelling not in ("modern", "historical"):
        raise ValueError(f"spelling must be modern or historical, not {spelling!r}")
    poet = load_poets().cards[card_id]
    lower = _lower(card_id, spelling)
    answer = KANA_ID[lower[0]]
    others = _distractors(card_id, answer, spelling)
    order = {kana: index for index, kana in enumerate(dict.fromkeys(KANA_ID.values()))}
    return SecondHalfQuestion(
        card=card_id,
        first_half=poet.upper_kana if spelling == "historical" else poet.upper_yomi,
        answer=answer,
        answer_glyph=lower[0],
        choices=tuple(sorted([answer, *others], key=order.__getitem__)),
    )
