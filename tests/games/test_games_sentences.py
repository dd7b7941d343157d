"""The public log in words, in English, French and Japanese: "you" has its own sentences, kana
are marked as Japanese, player names are escaped."""

import pytest
from django.utils import translation

from games.boards.common import Player
from games.boards.kazoku_families import KazokuFamiliesBoard
from games.boards.kazoku_words import KazokuWordsBoard

PLAYERS = [
    Player(index=0, name="Aiko", kind="human", is_me=True),
    Player(index=1, name="Ben <b>", kind="human"),
    Player(index=2, name="CPU 3 (normal)", kind="bot"),
]
FAMILIES_VIEW = {"variant": "kana", "kana": {"ki": {"glyph": "き", "script": "hiragana"}}}
KI = '<span lang="ja">き</span> (KI)'


def families(event, lang="en", romaji="always"):
    with translation.override(lang):
        return str(KazokuFamiliesBoard().sentence(event, PLAYERS, FAMILIES_VIEW, romaji))


def test_families_sentences_in_english_name_you_and_mark_the_kana():
    ask = {"type": "ask", "seat": 1, "target": 2, "card": "ki", "family": "ka"}
    assert families(ask) == f"Ben &lt;b&gt; asked CPU 3 (normal) for {KI} of the KA family."
    assert families({**ask, "target": 0}) == f"Ben &lt;b&gt; asked you for {KI} of the KA family."
    assert families({**ask, "seat": 0, "target": 1}) == (
        f"You asked Ben &lt;b&gt; for {KI} of the KA family."
    )
    assert families({"type": "given", "seat": 1, "to": 0, "card": "ki"}) == (
        f"Ben &lt;b&gt; gave you {KI}."
    )
    drew = {"type": "draw", "seat": 0, "card": "ki", "private_to": 0}
    assert families(drew) == f"You drew {KI}."
    assert families(drew, romaji="never") == 'You drew <span lang="ja">き</span>.'
    assert families({"type": "good_pick", "seat": 0, "card": "ki"}) == (
        f"Bonne pioche ! You drew the card you asked for: {KI}."
    )


@pytest.mark.parametrize(
    ("event", "french", "japanese"),
    [
        ({"type": "draw", "seat": 0, "card": "ki", "private_to": 0},
         f"Vous avez pioché {KI}.", f"あなたは「{KI}」を引きました。"),
        ({"type": "ask", "seat": 2, "target": 0, "card": "ki", "family": "ka"},
         f"CPU 3 (normal) vous a demandé {KI} de la famille KA.",
         f"CPU 3 (normal)があなたに「か行」の「{KI}」をたのみました。"),
        ({"type": "pass", "seat": 0, "reason": "pile_empty"},
         "La pioche est vide\u00a0: vous ne pouvez pas piocher.",
         "山札が空なので、あなたは引けません。"),
        ({"type": "family_laid", "seat": 0, "family": "ka", "cards": [], "auto": False},
         "Vous avez posé la famille KA.", "あなたは「か行」をそろえて出しました。"),
    ],
)  # fmt: skip
def test_families_sentences_about_you_are_grammatical_in_french_and_japanese(
    event, french, japanese
):
    assert families(event, "fr") == french
    assert families(event, "ja") == japanese
    assert "あなたさん" not in japanese and "Vous a " not in french


def test_words_sentences_mark_words_and_join_sentences_per_language():
    view = {"options": {"script": "hiragana"}, "kana": {}}
    form = {"type": "form", "seat": 0, "word": "ne", "cards": ["ne", "ko"], "table": [],
            "steal": [[1, "ko.2"]], "points": 1}  # fmt: skip
    with translation.override("en"):
        text = str(KazokuWordsBoard().sentence(form, PLAYERS, view, "always"))
    assert text == (
        'You formed <span lang="ja">ねこ</span> (neko, cat): 1 point. '
        '<span lang="ja">こ</span> (KO) was taken from Ben &lt;b&gt;.'
    )
    with translation.override("ja"):
        text = str(KazokuWordsBoard().sentence(form, PLAYERS, view, "never"))
    assert text == (  # no space between the two sentences in Japanese
        'あなたは「<span lang="ja">ねこ</span>」を作りました：1点。'
        'Ben &lt;b&gt;の「<span lang="ja">こ</span>」が取られました。'
    )


def test_words_formed_say_the_meaning_in_the_interface_language_and_never_in_japanese():
    view = {"options": {"script": "hiragana"}, "kana": {}}
    form = {"type": "form", "seat": 1, "word": "su", "cards": ["su", "i", "ka"], "table": [],
            "steal": [], "points": 2}  # fmt: skip
    board = KazokuWordsBoard()

    def said(lang, romaji):
        with translation.override(lang):
            return str(board.sentence(form, PLAYERS, view, romaji))

    assert said("en", "always") == (
        'Ben &lt;b&gt; formed <span lang="ja">すいか</span> (suika, watermelon): 2 points.'
    )
    assert said("fr", "always") == (
        'Ben &lt;b&gt; a formé <span lang="ja">すいか</span> (suika, pastèque)\u00a0: 2 points.'
    )
    assert "(watermelon)" in said("en", "never") and "suika" not in said("en", "never")
    in_japanese = 'Ben &lt;b&gt;が「<span lang="ja">すいか</span>」を作りました：2点。'
    assert said("ja", "never") == in_japanese


def test_japanese_family_names_read_as_what_they_hold():
    from games.boards.kazoku_families import family_label
    from games.engines.kazoku.deck import load_deck

    deck = load_deck()
    with translation.override("ja"):
        themed = [family_label("themed", f.id) for f in deck.families["themed"]]
        rows = [family_label("kana", f.id) for f in deck.families["kana"]]
        columns = [family_label("gojuon", f.id) for f in deck.families["gojuon"]]
    # never a bare 家 suffix (りょうり家 reads 料理家, "a cook"; いえ家 says "house" twice)
    assert "りょうりの家族" in themed and "いえの家族" in themed
    assert all(label.endswith("の家族") for label in themed)
    # a row only when the family is that row: や・ゆ・よ・わ・ん is no や行
    assert rows[:2] == ["あ行", "か行"] and "や・ゆ・よ・わ・ん" in rows and "や行" not in rows
    assert columns == ["あ段", "い段", "う段", "え段", "お段・ん"]  # ん is in no column
