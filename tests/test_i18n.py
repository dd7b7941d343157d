"""Languages: the switcher changes the page language; the compiled catalogues are complete."""

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")


def switch_language(client, code: str):
    return client.post("/i18n/setlang/", {"language": code, "next": "/"})


@pytest.mark.django_db
@pytest.mark.parametrize(
    "code, heading, nav",
    [
        ("fr", "Apprenez les kana en jouant à des jeux de cartes japonais", "Se connecter"),
        ("ja", "日本のカードゲームで遊びながら、かなを覚えよう", "ログイン"),
    ],
)
def test_the_language_switch_changes_the_page_language(client, code, heading, nav):
    english = client.get("/").content.decode()
    assert heading not in english and 'lang="en"' in english

    response = switch_language(client, code)
    assert response.status_code == 302 and response["Location"] == "/"
    page = client.get("/").content.decode()
    assert f'<html lang="{code}">' in page
    assert heading in page and nav in page
    assert f'<option value="{code}" lang="{code}" selected>' in page

    switch_language(client, "en")
    assert "Learn kana by playing Japanese card games" in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_switcher_offers_english_french_and_japanese(client):
    page = client.get("/").content.decode()
    for code, name in [("en", "English"), ("fr", "français"), ("ja", "日本語")]:
        assert f'value="{code}"' in page and name in page


@pytest.mark.django_db
def test_a_form_error_is_translated(client):
    switch_language(client, "fr")
    response = client.post(
        "/signup/",
        {"role": "self", "username": "zed", "password1": "long-enough-1", "password2": "other-1"},
    )
    assert "Les deux mots de passe sont différents." in response.content.decode()


def compiled(code: str) -> dict:
    with open(LOCALE / code / "LC_MESSAGES" / "django.mo", "rb") as handle:
        return gettext.GNUTranslations(handle)._catalog


@pytest.mark.parametrize("code", ["fr", "ja"])
def test_every_message_is_translated_with_the_same_placeholders(code):
    catalog = {key: value for key, value in compiled(code).items() if key != ""}
    assert len(catalog) > 100
    for key, translation in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        assert translation.strip(), msgid
        assert sorted(PLACEHOLDER.findall(translation)) == sorted(PLACEHOLDER.findall(msgid)), (
            msgid,
            translation,
        )


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs gettext's msgfmt")
@pytest.mark.parametrize("code", ["fr", "ja"])
def test_the_committed_mo_files_match_their_po_sources(code, tmp_path):
    """Someone edited a .po without compiling it? The .mo would lag behind."""
    source = LOCALE / code / "LC_MESSAGES" / "django.po"
    fresh = tmp_path / "fresh.mo"
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(fresh), str(source)],
        check=True,
        capture_output=True,
        text=True,
    )
    # msgfmt leaves fuzzy and untranslated entries out of the .mo: none may exist.
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr, result.stderr
    with open(fresh, "rb") as handle:
        assert gettext.GNUTranslations(handle)._catalog == compiled(code)


@pytest.mark.parametrize(
    "context, msgid, fr, ja",
    [
        ("date an assignment is due", "Due", "Échéance", "期限"),
        ("kana state", "due", "à réviser", "復習待ち"),
        ("link to a table", "Open", "Ouvrir", "開く"),
        ("question status", "Open", "Ouverte", "未回答"),
        ("button", "Answer", "Répondre", "答える"),
        ("learning event kind", "Answer", "Réponse", "回答"),
    ],
)
def test_one_english_word_with_two_meanings_has_a_context_each(context, msgid, fr, ja):
    from django.utils import translation

    for code, expected in (("fr", fr), ("ja", ja)):
        with translation.override(code):
            assert translation.pgettext(context, msgid) == expected


def test_the_templates_use_those_contexts():
    root = LOCALE.parent / "templates"
    assert (
        '{% translate "Due" context "date an assignment is due" %}'
        in (root / "teach/assignments.html").read_text()
    )
    assert (
        '{% translate "Open" context "link to a table" %}' in (root / "teach/live.html").read_text()
    )


def test_the_word_game_has_its_french_name():
    from django.utils import translation

    with translation.override("fr"):
        assert translation.gettext("Kazoku: the word game") == "Kazoku\u00a0: le jeu des kana"
    with translation.override("ja"):
        assert translation.gettext("star word") == "☆のことば"


def test_a_class_name_gets_no_honorific():
    """Issue 26 item 7: "Tables of Demo class being played now" read "Demo classさんの…": さん is
    for people, and the name here is a class's."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("ja"):
        html = render_to_string(
            "teach/partials/student_assignments.html",
            {"classes": [SimpleNamespace(pk=1, name="Demo class")], "items": []},
        )
    assert "Demo class" in html and "さん" not in html


def test_susuki_is_eulalia_in_french_not_pampas_grass():
    """Miscanthus sinensis is « eulalie » (or miscanthus); « herbe de la pampa » is Cortaderia."""
    from django.utils import translation

    with translation.override("fr"):
        name = translation.gettext("Silver grass")
    assert "Eulalie" in name and "pampa" not in name.lower()


@pytest.mark.parametrize(
    ("msgid", "expected", "never"),
    [
        ("Bonne pioche ! You drew the card you asked for: %(card)s.", "当たり！", "ボンヌ"),
        ("%(name)s declared the yokai appeased.", "「妖怪はしずまった」と宣言", "が妖怪が"),
        ("When every family is laid (French rules)", "（フランス式）", "フランス語版"),
        ("%(n)d kana waiting for review.", "文字", "個"),
        ("The blocks, one per family", "（家族ごとに一つ）", "("),
    ],
)
def test_japanese_reads_naturally(msgid, expected, never):
    """Issue 26 item 9: a Japanese exclamation, no double が, フランス式, 文字 for kana, full-width
    brackets."""
    from django.utils import translation

    with translation.override("ja"):
        text = translation.gettext(msgid)
    assert expected in text and never not in text


# the text a reader sees: placeholders, HTML tags and URLs set aside
_NOT_TEXT = re.compile(r"%\([a-z_0-9]+\)[sd]|%[sd]|<[^>]+>|\{[^}]*\}|https?://\S+|\?v=")


def french_typography_faults(text: str) -> list[str]:
    """What French typography rejects in ``text``: a straight apostrophe, or : ; ? ! » without
    a non-breaking space before them, « without one after it."""
    plain = _NOT_TEXT.sub("\x00", text)
    faults = []
    if re.search(r"\w'|'\w", plain):
        faults.append("straight apostrophe")
    if re.search(r"[^\u00a0\u202f\x00\s(][:;?!»]|[ ][:;?!»]", plain):
        faults.append("no non-breaking space before : ; ? ! »")
    if re.search(r"«[^\u00a0\u202f]", plain):
        faults.append("no non-breaking space after «")
    if re.search(r"[\u00a0\u202f]{2}", plain):
        faults.append("two non-breaking spaces")
    return faults


def test_the_typography_check_catches_what_it_must():
    assert french_typography_faults("L'ordinateur joue") == ["straight apostrophe"]
    assert french_typography_faults("Étape 1 : regardez") != []
    assert french_typography_faults("éliminé!") != []
    assert french_typography_faults("« Bonne pioche »") != []
    assert french_typography_faults("«\u00a0\u00a0oui\u00a0»") == ["two non-breaking spaces"]
    assert french_typography_faults("Étape 1\u00a0: l’ordinateur\u00a0! «\u00a0oui\u00a0»") == []
    assert french_typography_faults("%(name)s : <a href='x?v=1'>lien</a>") != []
    assert french_typography_faults("<a href='x'>lien</a>\u00a0: 12") == []


def test_the_french_catalogue_follows_french_typography():
    """Issue 26 item 10: typographic apostrophes and a non-breaking space before : ; ? ! in
    every French message, checked over the whole compiled catalogue."""
    faults = {}
    for key, value in compiled("fr").items():
        if key == "":
            continue
        for text in value if isinstance(value, tuple) else (value,):
            found = french_typography_faults(text)
            if found:
                faults[text[:60]] = found
    assert not faults, faults


def test_a_label_colon_is_full_width_in_japanese():
    """Issue 26 item 9: form labels (Django's label suffix) and the kana grid's caption read
    ユーザー名： / ひらがな：, not a half-width colon."""
    from django.test import Client

    page = Client(headers={"accept-language": "ja"}).get("/login/").content.decode()
    assert "ユーザー名：" in page and "ユーザー名:" not in page
