"""The 45 words of the word game, checked from the deck fixture itself.

Every structural rule of docs/rules/kazoku-words.md is recomputed here from the kana
strings, independently of the stored `kana_ids`, `star`, `points` and `hearts` fields.
"""

import collections
import json
from pathlib import Path

import jaconv
import pytest

DECK = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "kazoku_deck.json").read_text("utf-8")
)
CARDS = DECK["cards"]
DECK_KANA = {c["hiragana"] for c in CARDS}

# Written by hand, independently of the fixture: the Hepburn romaji of the 45 words, long
# vowels with a macron as the rules write them (DŌBUTSU): ō for おう, ū for うう; ei and the ii
# of yaki-imo (two words) stay as spelled.
EXPECTED_ROMAJI = {
    "a": "atama", "i": "inu", "u": "udon", "e": "kaeru", "o": "ofuro",
    "ka": "karate", "ki": "kitsune", "ku": "kutsushita", "ke": "kemuri", "ko": "koinobori",
    "sa": "sakana", "shi": "hashi", "su": "suika", "se": "sentaku", "so": "sora",
    "ta": "katakana", "chi": "uchiwa", "tsu": "oyatsu", "te": "tera", "to": "tokei",
    "na": "nasu", "ni": "niwatori", "nu": "nuigurumi", "ne": "neko", "no": "nori",
    "ha": "hana", "hi": "himitsu", "fu": "fuyu", "he": "heso", "ho": "hoshi",
    "ma": "uma", "mi": "mikan", "mu": "katatsumuri", "me": "ame", "mo": "momiji",
    "ya": "yakiimo", "yu": "yukata", "yo": "yōfuku", "ra": "sara", "ri": "ringo",
    "ru": "kuruma", "re": "renshū", "ro": "rōsoku", "wa": "himawari", "n": "ehon",
}  # fmt: skip

# The kana outside the 45 cards that the words use, by kana id.
EXTRA_KANA = {"do": "ど", "bo": "ぼ", "gu": "ぐ", "ji": "じ", "go": "ご", "small_yu": "ゅ"}


def word(card):
    return card["word"]


def problems(card) -> int:
    """Kana occurrences that distinct cards of one deck cannot supply (the word card is fixed)."""
    counts = collections.Counter(word(card)["kana"])
    return sum(n - 1 if ch in DECK_KANA else n for ch, n in counts.items())


def test_the_deck_has_45_cards_each_with_one_word():
    assert len(CARDS) == 45
    fixed = {"id", "hiragana", "katakana", "row", "column", "theme", "member", "word"}
    assert all(set(c) == fixed for c in CARDS)
    assert all(
        set(word(c)) >= {"kana", "kana_ids", "romaji", "en", "fr", "star", "points", "hearts"}
        for c in CARDS
    )


def test_each_word_contains_its_own_card_kana():
    for card in CARDS:
        assert card["hiragana"] in word(card)["kana"], card["id"]
        assert card["id"] in word(card)["kana_ids"], card["id"]


def test_words_are_hiragana_only():
    for card in CARDS:
        kana = word(card)["kana"]
        assert len(kana) >= 2, card["id"]
        assert all("\u3041" <= ch <= "\u3096" for ch in kana), card["id"]


def test_kana_ids_spell_the_word():
    by_id = {c["id"]: c["hiragana"] for c in CARDS} | EXTRA_KANA
    assert not set(EXTRA_KANA) & {c["id"] for c in CARDS}
    for card in CARDS:
        assert "".join(by_id[k] for k in word(card)["kana_ids"]) == word(card)["kana"]


def hepburn(kana: str) -> str:
    """jaconv's kana-by-kana romaji with Hepburn's long vowels (none of the 45 words has an ou
    or uu across a word boundary: the hand-written table above checks that independently)."""
    return jaconv.kana2alphabet(kana).replace("ou", "ō").replace("uu", "ū")


def test_romaji_matches_an_independent_table_and_the_kana():
    assert {c["id"]: word(c)["romaji"] for c in CARDS} == EXPECTED_ROMAJI
    for card in CARDS:
        assert hepburn(word(card)["kana"]) == word(card)["romaji"], card["id"]
    assert {c["id"] for c in CARDS if "ō" in word(c)["romaji"] or "ū" in word(c)["romaji"]} == {
        "yo",
        "re",
        "ro",
    }


def test_no_duplicate_words():
    assert len({word(c)["kana"] for c in CARDS}) == 45
    assert len({word(c)["romaji"] for c in CARDS}) == 45


def test_meanings_are_given_in_english_and_french():
    for card in CARDS:
        assert word(card)["en"].strip() and word(card)["fr"].strip()


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_star_exactly_when_one_joker_is_needed(card):
    assert problems(card) <= 1, "two jokers would be needed: not a legal word"
    assert word(card)["star"] is (problems(card) == 1)


def test_a_handful_of_star_words_at_most_a_fifth():
    stars = [c["id"] for c in CARDS if word(c)["star"]]
    assert 3 <= len(stars) <= 45 // 5
    # both kinds of star: a doubled kana and a kana outside the deck
    assert any(collections.Counter(word(c)["kana"]).most_common(1)[0][1] > 1 for c in CARDS)
    assert any(set(word(c)["kana"]) - DECK_KANA for c in CARDS)


def test_points_are_length_minus_one_plus_one_for_a_star():
    for card in CARDS:
        w = word(card)
        assert w["points"] == len(w["kana"]) - 1 + (1 if w["star"] else 0), card["id"]
        assert len(w["kana_ids"]) == len(w["kana"])


def test_hearts_are_derived_from_how_many_words_use_the_kana():
    for card in CARDS:
        n = sum(card["hiragana"] in word(other)["kana"] for other in CARDS)
        expected = 0 if n == 1 else 1 if n <= 3 else 2 if n <= 6 else 3
        assert word(card)["hearts"] == expected, card["id"]


def test_every_word_is_formable_from_one_deck_plus_at_most_one_joker():
    """Each non-star word uses distinct cards; a star word gets its one problem from the joker."""
    for card in CARDS:
        others = collections.Counter(word(card)["kana"])
        others[card["hiragana"]] -= 1
        missing = sum(
            n for ch, n in others.items() if ch not in DECK_KANA or ch == card["hiragana"]
        )
        missing += sum(n - 1 for ch, n in others.items() if ch in DECK_KANA and n > 1)
        assert missing == (1 if word(card)["star"] else 0), card["id"]
