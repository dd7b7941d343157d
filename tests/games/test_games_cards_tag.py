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
