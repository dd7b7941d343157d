"""docs/glossary.md is kept: wherever a glossary term appears in a msgid, the French and
Japanese translations use the glossary's term for it (issue 26)."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
# what is not text: placeholders (with the word they name), tags, braces
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sd]|%[sd]|<[^>]+>|\{[^}]*\}")


def glossary_rows() -> list[dict]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "---"):
            continue
        rows.append(
            {
                "en": [form.strip() for form in cells[0].split(" / ")],
                "fr": [form.strip() for form in cells[1].split(" / ")],
                "ja": [form.strip() for form in cells[2].split(" / ")],
                "skip": set(re.findall(r"`([^`]+)`", cells[3])),
            }
        )
    return rows


def catalogue(code: str) -> list[tuple[str | None, str, str]]:
    """(msgctxt, msgid, msgstr) of each translated entry (plural: its first form)."""
    text = (ROOT / "locale" / code / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = []
    for block in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[0\])?)\s+(".*")$', line)
            if match:
                key = match.group(1).replace("[0]", "")
                fields[key] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and key:
                fields[key] += ast.literal_eval(line)
            elif not line.startswith('"'):
                key = None
        if fields.get("msgid"):
            entries.append((fields.get("msgctxt"), fields["msgid"], fields.get("msgstr", "")))
    return entries


def english_words(msgid: str, row: dict, longer: list[str]) -> bool:
    """Does ``msgid`` use the row's English term as text (not named by a placeholder, not
    inside a longer glossary term)?"""
    forms = "|".join(re.escape(form) for form in sorted(row["en"], key=len, reverse=True))
    text = re.sub(rf"%\([a-z_0-9]+\)[sd]\s+({forms})\b", " ", msgid, flags=re.I)
    text = PLACEHOLDER.sub(" ", text)
    for term in longer:
        text = re.sub(rf"\b{re.escape(term)}\b", " ", text, flags=re.I)
    return re.search(rf"\b({forms})\b", text, re.I) is not None


ROWS = glossary_rows()


def test_the_glossary_has_its_terms():
    terms = {form for row in ROWS for form in row["en"]}
    assert {"hand", "yaku", "kana", "romaji", "teacher", "student", "ribbon", "CPU"} <= terms
    assert len(ROWS) >= 30


def test_the_check_bites_on_a_planted_inconsistency():
    row = next(r for r in ROWS if "clue" in r["en"])
    assert english_words("Reveal a new clue", row, [])
    assert not english_words("%(clue)s placed", row, [])
    pile = next(r for r in ROWS if r["en"] == ["pile"])
    assert not english_words("the hand goes to the common pile", pile, ["common pile"])
    planted = [(None, "Reveal a new clue", "Révélez un nouvel élément")]
    assert faults_in(planted, "fr") == [
        "clue -> indice: 'Reveal a new clue' = 'Révélez un nouvel élément'"
    ]
    assert faults_in([(None, "Reveal a new clue", "Révélez un nouvel indice")], "fr") == []


def faults_in(entries: list[tuple[str | None, str, str]], code: str) -> list[str]:
    faults = []
    for row in ROWS:
        longer = [
            form
            for other in ROWS
            for form in other["en"]
            if other is not row and any(f in form and f != form for f in row["en"])
        ]
        for context, msgid, msgstr in entries:
            if msgid in row["skip"] or (context and context in row["skip"]):
                continue
            if not english_words(msgid, row, longer):
                continue
            if not any(form.lower() in msgstr.lower() for form in row[code]):
                faults.append(f"{row['en'][0]} -> {row[code][0]}: {msgid!r} = {msgstr!r}")
    return faults


@pytest.mark.parametrize("code", ["fr", "ja"])
def test_the_catalogues_use_the_glossary_terms(code):
    faults = faults_in(catalogue(code), code)
    assert not faults, "\n".join(faults)
