"""The journeys' raw-id check itself (runs in make test: no browser): an option's value in
parentheses is caught, a deck word glossed with its own reading is not."""

import pytest
from journey_harness import Journey


def _problems(text: str, language: str = "ja") -> list[str]:
    journey = Journey.__new__(Journey)  # only the language matters to the word check
    journey.language = language
    return [p for p in journey._words([text]) if p.startswith("raw id")]  # noqa: SLF001


def test_a_word_formed_in_the_word_game_is_glossed_with_its_reading():
    # the log line of CI's failed run: かたかな is read like the script option's value
    assert _problems("CPU 3（ふつう）が「かたかな」 (katakana)を作りました：4点。") == []
    # a katakana table prints the word in katakana; a page without brackets around it
    assert _problems("あなたは「カタカナ」 (katakana)を作りました：4点。") == []
    assert _problems("Vous avez formé かたかな (katakana) : 4 points.", "fr") == []


@pytest.mark.parametrize(
    "text",
    [
        "「かたかな」 (hiragana)",  # a word beside another reading: an option's value
        "カタカナ (hiragana)",
        "「かな」 (kana)",  # not a deck word
        "Kazoku (kana)",
        "(katakana)",
        "「かたかな」 (katakana) (gojuon)",  # the second value still counts
    ],
)
def test_an_option_value_in_parentheses_is_still_a_raw_id(text):
    assert _problems(text) != []
