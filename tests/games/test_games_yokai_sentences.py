"""The Yokai log in words (English, French, Japanese): peeks say the family to the peeker only,
family names are marked as Japanese, player names are escaped, every event type has a sentence."""

import pytest
from django.utils import translation

from games.boards.common import Player
from games.boards.yokai import SENTENCES, YokaiBoard

PLAYERS = [
    Player(index=0, name="Aiko", kind="human", is_me=True),
    Player(index=1, name="Ben <b>", kind="human"),
]
VIEW = {"options": {"script": "hiragana"}}
KITSUNE = '<span lang="ja">きつね</span> (kitsune)'


def say(event, lang="en", romaji="always", view=VIEW):
    with translation.override(lang):
        return str(YokaiBoard().sentence(event, PLAYERS, view, romaji))


def test_a_private_peek_names_the_family_and_the_public_one_does_not():
    private = {"type": "peek", "seat": 0, "row": 0, "col": 0, "card": "kitsune-2",
               "family": "kitsune", "private_to": 0}  # fmt: skip
    assert say(private) == f"You peeked at a yokai: {KITSUNE}."
    assert say(private, romaji="never") == 'You peeked at a yokai: <span lang="ja">きつね</span>.'
    public = {"type": "peek", "seat": 1, "row": 0, "col": 0, "except": 0}
    assert say(public) == "Ben &lt;b&gt; peeked at a yokai."
    katakana = say(private, view={"options": {"script": "katakana"}})
    assert '<span lang="ja">キツネ</span>' in katakana


def test_clue_sentences_name_every_family_of_the_clue():
    reveal = {"type": "reveal", "seat": 1, "clue": "clue-kappa-oni", "slot": 0}
    assert say(reveal) == (
        'Ben &lt;b&gt; revealed the clue <span lang="ja">かっぱ・おに</span> (kappa · oni).'
    )
    face_down = {"type": "place", "seat": 0, "slot": 0, "clue": None, "row": 1, "col": 1}
    assert say(face_down) == "You locked a yokai with a face-down clue."


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "The yokai are appeased: the team wins with 12 points."),
        ("fr", "Les yokai sont apaisés\u00a0: l’équipe gagne avec 12 points."),
        ("ja", "妖怪はしずまりました。チームの勝ちです（12点）。"),
    ],
)
def test_the_end_in_three_languages(lang, expected):
    event = {"type": "game_over", "reason": "declared", "won": True, "points": 12,
             "rating": "legendary"}  # fmt: skip
    assert say(event, lang) == expected


def test_every_engine_event_type_has_a_sentence_and_turns_stay_silent():
    assert set(SENTENCES) == {
        "deal", "peek", "move", "no_move", "reveal", "draw_clue", "place", "declare",
        "game_over",
    }  # fmt: skip
    assert YokaiBoard().sentence({"type": "turn", "seat": 0, "turn_no": 2}, PLAYERS, VIEW) is None
    assert say({"type": "move", "seat": 1, "row": 0, "col": 0, "to_row": 1, "to_col": 4},
               "fr") == "Ben &lt;b&gt; a déplacé un yokai."  # fmt: skip
