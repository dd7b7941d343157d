"""The kana catalog (fixtures/kana.json, loaded by migration) against independent sources:
Unicode character names, jaconv's romanisation, and a gojūon table written here by hand."""

import json
import unicodedata
from collections import Counter
from pathlib import Path

import jaconv
import pytest

from learning.models import Kana

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kana.json"

# The gojūon chart as printed in any textbook, row by row (· = empty cell).
GOJUON = {
    "a": "あいうえお",
    "ka": "かきくけこ",
    "sa": "さしすせそ",
    "ta": "たちつてと",
    "na": "なにぬねの",
    "ha": "はひふへほ",
    "ma": "まみむめも",
    "ya": "や·ゆ·よ",
    "ra": "らりるれろ",
    "wa": "わ···を",
    "n": "ん",
    "ga": "がぎぐげご",
    "za": "ざじずぜぞ",
    "da": "だぢづでど",
    "ba": "ばびぶべぼ",
    "pa": "ぱぴぷぺぽ",
}
VOWELS = "aiueo"
# Hepburn as the rules write it: the exceptions to consonant + vowel.
HEPBURN_EXCEPTIONS = {
    "si": "shi",
    "ti": "chi",
    "tu": "tsu",
    "hu": "fu",
    "zi": "ji",
    "di": "ji",
    "du": "zu",
}
# Unicode names spell kana in Kunrei-shiki; our ids are Hepburn (ぢ/づ keep di/du).
KUNREI_OF_ID = {"shi": "si", "chi": "ti", "tsu": "tu", "fu": "hu", "ji": "zi"}


def catalog() -> list[dict]:
    return [row["fields"] for row in json.loads(FIXTURE.read_text(encoding="utf-8"))]


def expected_hiragana() -> list[tuple[str, str, str, str]]:
    """(glyph, row, column, hepburn) for every cell of the hand-written chart."""
    cells = []
    for row, glyphs in GOJUON.items():
        for index, glyph in enumerate(glyphs):
            if glyph == "·":
                continue
            if row == "n":
                cells.append((glyph, "n", "n", "n"))
                continue
            consonant = "" if row == "a" else row[0]
            kunrei = consonant + VOWELS[index]
            cells.append((glyph, row, VOWELS[index], HEPBURN_EXCEPTIONS.get(kunrei, kunrei)))
    return cells


def test_counts_71_per_script_46_basic_and_25_voiced():
    rows = catalog()
    for script in ("hiragana", "katakana"):
        mine = [r for r in rows if r["script"] == script]
        assert len(mine) == 71
        assert Counter(r["voicing"] for r in mine) == {"plain": 46, "dakuten": 20, "handakuten": 5}
    assert len({r["glyph"] for r in rows}) == 142
    assert len({(r["kana_id"], r["script"]) for r in rows}) == 142


def test_every_glyph_matches_its_unicode_name():
    for row in catalog():
        kunrei = KUNREI_OF_ID.get(row["kana_id"], row["kana_id"])
        expected = f"{row['script'].upper()} LETTER {kunrei.upper()}"
        assert unicodedata.name(row["glyph"]) == expected, row


def test_romaji_matches_jaconv():
    for row in catalog():
        hiragana = jaconv.kata2hira(row["glyph"])
        assert jaconv.kana2alphabet(hiragana) == row["romaji"], row


def test_glyph_row_column_and_romaji_match_the_hand_written_chart():
    hiragana = {r["glyph"]: r for r in catalog() if r["script"] == "hiragana"}
    cells = expected_hiragana()
    assert len(cells) == 71
    assert set(hiragana) == {glyph for glyph, *_ in cells}
    for glyph, row, column, hepburn in cells:
        entry = hiragana[glyph]
        assert (entry["row"], entry["column"], entry["romaji"]) == (row, column, hepburn), glyph


def test_ids_are_the_hepburn_romaji_except_di_du():
    # ぢ/づ read ji/zu like じ/ず; their ids must differ, so they keep Kunrei di/du.
    special = {"ぢ": ("di", "ji"), "づ": ("du", "zu")}
    for row in catalog():
        hiragana = jaconv.kata2hira(row["glyph"])
        expected = special.get(hiragana, (row["romaji"], row["romaji"]))
        assert (row["kana_id"], row["romaji"]) == expected, row
    ids = {r["kana_id"] for r in catalog()}
    assert {"shi", "chi", "tsu", "fu", "n", "wo"} <= ids
    assert not {"si", "ti", "tu", "hu", "nn"} & ids


def test_katakana_mirrors_hiragana():
    rows = catalog()
    by_id = {(r["kana_id"], r["script"]): r for r in rows}
    for row in rows:
        if row["script"] != "hiragana":
            continue
        kata = by_id[(row["kana_id"], "katakana")]
        assert kata["glyph"] == jaconv.hira2kata(row["glyph"])
        for field in ("romaji", "row", "column", "voicing", "order"):
            assert kata[field] == row[field]


def test_voicing_matches_the_combining_mark():
    marks = {"plain": None, "dakuten": "\u3099", "handakuten": "\u309a"}
    for row in catalog():
        decomposed = unicodedata.normalize("NFD", row["glyph"])
        mark = decomposed[1] if len(decomposed) == 2 else None
        assert mark == marks[row["voicing"]], row


@pytest.mark.django_db
def test_the_database_holds_the_fixture():
    assert Kana.objects.count() == 142
    shi = Kana.objects.get(kana_id="shi", script="katakana")
    assert (shi.glyph, shi.romaji, shi.row, shi.column) == ("シ", "shi", "sa", "i")
    orders = list(Kana.objects.filter(script="hiragana").values_list("order", flat=True))
    assert orders == list(range(71))
