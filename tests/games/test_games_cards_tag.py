"""The ``{% kana_card %}`` tag: what each romaji mode shows, and that every value is escaped."""

from games.templatetags.games_cards import kana_card


def test_values_are_escaped_and_modes_show_or_hide_the_romaji():
    card = {"id": 'x"y', "glyph": "<b>か</b>", "romaji": "K&A", "mode": "hover"}
    html = str(kana_card(card, focusable=True))
    assert "<b>" not in html and "&lt;b&gt;か&lt;/b&gt;" in html
    assert 'data-card="x&quot;y"' in html and 'title="K&amp;A"' in html
    assert 'tabindex="0"' in html and '<span class="romaji">K&amp;A</span>' in html
    never = str(kana_card({**card, "mode": "never"}, focusable=True))
    assert "romaji" not in never and "title=" not in never and "tabindex" not in never
    always = str(kana_card({**card, "mode": "always"}, focusable=True))
    assert "tabindex" not in always and '<span class="romaji">K&amp;A</span>' in always


def test_word_cards_show_the_printed_word_and_its_star():
    card = {"id": "ta", "glyph": "た", "romaji": "TA", "mode": "always",
            "word": {"kana": "かたかな", "romaji": "katakana", "star": True}}  # fmt: skip
    html = str(kana_card(card, word=True, small=True))
    assert html.startswith('<span class="kana-card kana-card-sm word-card" data-card="ta">')
    assert '<span class="card-word" lang="ja">かたかな☆</span>' in html
    assert '<span class="card-word-romaji">katakana</span>' in html
    assert "card-word" not in str(kana_card(card))  # the word only on word cards


def test_word_cards_print_meaning_points_and_hearts_as_the_rules_describe():
    from django.utils import translation

    from games.boards.kazoku_words import word_of

    with translation.override("fr"):
        word = word_of("su.2", "hiragana")
        html = str(kana_card({"id": "su.2", "glyph": "す", "romaji": "SU", "mode": "never",
                              "word": word}, word=True))  # fmt: skip
    assert word["meaning"] == "pastèque" and word["points"] == 2 and word["hearts"] == 1
    assert '<span class="card-meaning">pastèque</span>' in html
    foot = html[html.index('<span class="card-foot">') :]
    # hearts first (bottom left), as symbols hidden from screen readers plus their meaning
    assert foot.index("card-hearts") < foot.index("card-points")
    assert '<span aria-hidden="true">♥</span>' in foot and "1 cœur\u00a0: 2 ou 3 mots" in foot
    assert '<span class="card-points">2 pts</span>' in foot
    with translation.override("ja"):
        word = word_of("se", "katakana")
    assert word["kana"] == "センタク" and word["meaning"] == "" and word["hearts"] == 0
    html = str(kana_card({"id": "se", "glyph": "セ", "romaji": "SE", "mode": "always",
                          "word": word}, word=True))  # fmt: skip
    assert "card-meaning" not in html and '<span aria-hidden="true"></span>' in html
    assert "ハートなし" in html and "3点" in html


def test_hearts_printed_on_the_cards_count_the_words_using_each_kana():
    from games.engines.kazoku.index import word_index

    words = word_index().words
    for card in words:
        using = sum(card in other.kana_ids for other in words.values())
        expected = 0 if using == 1 else 1 if using <= 3 else 2 if using <= 6 else 3
        assert load_hearts(card) == expected, card


def load_hearts(card: str) -> int:
    from games.engines.kazoku.deck import load_deck

    return load_deck().cards[card].extra["word"]["hearts"]


def test_listen_buttons_say_their_text_and_stay_hidden_until_the_script_runs():
    from pathlib import Path

    from django.utils import translation

    from games.templatetags.games_cards import listen

    with translation.override("en"):  # whatever language an earlier test left active
        html = str(listen('ね"こ', label="neko"))
    assert html.startswith('<button type="button" class="listen" data-say="ね&quot;こ"')
    assert 'aria-label="Listen: neko"' in html
    # the icon is drawn (an emoji needs a font some school computers lack), hidden from
    # screen readers, which read the label
    assert '<svg class="icon"' in html and 'aria-hidden="true" focusable="false"' in html
    assert "🔊" not in html
    css = (Path(__file__).resolve().parents[2] / "static/css/kanagame.css").read_text()
    # hidden without JavaScript; shown once listen.js runs, marked when the device has no
    # Japanese voice (what a press then says: tests/browser/test_browser_listen.py)
    assert ".listen { display: none; }" in css and ".listen-on .listen {" in css
    assert ".no-voice .listen {" in css
