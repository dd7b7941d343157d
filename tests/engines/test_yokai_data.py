"""Yokai's cards as data: counts, ids, and the kana of the family names against the catalogue."""

import json
from pathlib import Path

import pytest

from games.engines import get_engine
from games.engines.yokai.data import (
    AFFINITY_FAMILIES,
    CLUE_COUNTS,
    CLUE_FAMILIES,
    FAMILIES,
    OBJECTIVES,
    YOKAI,
)

ENG = get_engine("yokai")
KANA = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "kana.json").read_text())
GLYPHS = {(row["fields"]["script"], row["fields"]["glyph"]): row["fields"] for row in KANA}
SOKUON = {"っ", "ッ"}  # the small tsu: a pause, not a kana of the catalogue


def test_sixteen_yokai_in_four_families_of_four():
    assert len(YOKAI) == 16 and len(set(YOKAI)) == 16
    assert [f.id for f in FAMILIES] == ["kitsune", "kappa", "rokurokubi", "oni"]
    for family in FAMILIES:
        assert sum(card.startswith(family.id + "-") for card in YOKAI) == 4


def test_fourteen_clues_singles_pairs_and_triples():
    sizes = [len(families) for families in CLUE_FAMILIES.values()]
    assert (len(sizes), sizes.count(1), sizes.count(2), sizes.count(3)) == (14, 4, 6, 4)
    for players, counts in CLUE_COUNTS.items():
        for size, count in zip((1, 2, 3), counts, strict=True):
            assert count <= sizes.count(size), (players, size)
    assert {p: sum(c) for p, c in CLUE_COUNTS.items()} == {2: 7, 3: 9, 4: 10}


def test_six_affinities_are_the_six_pairs_and_three_objectives_of_16_cells():
    assert len(AFFINITY_FAMILIES) == 6
    assert len({frozenset(pair) for pair in AFFINITY_FAMILIES.values()}) == 6
    assert [o.id for o in OBJECTIVES] == ["square", "scroll", "lantern"]
    assert all(len(o.cells) == 16 for o in OBJECTIVES)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.id)
def test_family_names_are_spelt_with_catalogue_kana_matching_their_romaji(family):
    for script in ("hiragana", "katakana"):
        name = getattr(family, script)
        ids = [GLYPHS[(script, glyph)]["kana_id"] for glyph in name if glyph not in SOKUON]
        assert tuple(dict.fromkeys(ids)) == family.kana_ids
        romaji = "".join(GLYPHS[(script, g)]["romaji"] for g in name if g not in SOKUON)
        # the sokuon doubles the next consonant: ka + (p)pa
        assert romaji.replace("kapa", "kappa") == family.romaji


def test_kana_on_and_practice_read_the_family_names():
    assert ENG.kana_on("kitsune-3") == ["ki", "tsu", "ne"]
    assert ENG.kana_on("kappa-1") == ["ka", "pa"]
    assert ENG.kana_on("rokurokubi-2") == ["ro", "ku", "bi"]
    assert ENG.kana_on("clue-kitsune-oni") == ["ki", "tsu", "ne", "o", "ni"]
    assert ENG.kana_on("affinity-kappa-oni") == ["ka", "pa", "o", "ni"]
    with pytest.raises(ValueError):
        ENG.kana_on("tanuki-1")
    expected = {"ki", "tsu", "ne", "ka", "pa", "ro", "ku", "bi", "o", "ni"}
    presets = ENG.practice_presets()
    assert {p["script"] for p in presets} == {"hiragana", "katakana"}
    for preset in presets:
        ENG.validate_options(preset)
        assert ENG.practice(preset) == expected


def test_cards_shown_lists_the_peeked_and_face_up_cards_with_their_script():
    state = ENG.new_game(2, 5, {"script": "katakana"})
    assert ENG.cards_shown(ENG.view(state, 0)) == {}
    state, _ = ENG.apply(state, 0, {"type": "peek", "row": 2, "col": 1})
    card = dict(((r, c), card) for r, c, card in state.grid)[(2, 1)]
    view = ENG.view(state, 0)
    assert ENG.cards_shown(view) == {card: "katakana"}
    assert view["kana"][card]["glyph"] in {f.katakana for f in FAMILIES}
    assert ENG.cards_shown(ENG.view(state, 1)) == {}
