"""The kana catalog as plain data, and which kana look alike (pure Python, no Django).

``catalog()`` reads fixtures/kana.json once (the same file the data migration loads into the
``Kana`` table), so pure code (srs, picker, bench/srs_sim.py) can use it without a database.

``VISUAL_CONFUSABLES`` lists, per script, the groups of kana learners commonly mix up. It is
the fallback for recognition-prompt distractors before a learner has confusions of their own
(docs/learning.md lists them with the reasons). Voiced kana add their plain and (for the
ba row) handakuten siblings: が is confusable with か, ば with ぱ.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

KANA_PATH = Path(__file__).resolve().parents[1] / "fixtures" / "kana.json"
SCRIPTS = ("hiragana", "katakana")
BASIC_COUNT = 46  # the 46 basic kana (a .. n), before dakuten and handakuten

VISUAL_CONFUSABLES: Mapping[str, tuple[tuple[str, ...], ...]] = {
    "hiragana": (
        ("nu", "me"),  # ぬ め: same body, ぬ has the loop
        ("wa", "ne", "re"),  # わ ね れ: same left stroke, different tail
        ("ha", "ho"),  # は ほ: one extra bar
        ("ru", "ro"),  # る ろ: loop or not
        ("sa", "chi"),  # さ ち: mirror images
        ("sa", "ki"),  # さ き: one extra bar
        ("i", "ri"),  # い り: two strokes, different lengths
        ("a", "o"),  # あ お
        ("ma", "mo"),  # ま も
        ("ke", "ha"),  # け は
        ("ta", "na"),  # た な
        ("u", "ra"),  # う ら
        ("ku", "he"),  # く へ: same stroke, rotated
        ("so", "ro"),  # そ ろ
        ("shi", "tsu"),  # し つ: a single curve
    ),
    "katakana": (
        ("shi", "tsu"),  # シ ツ: stroke angle and the long stroke's direction
        ("so", "n"),  # ソ ン: same
        ("ku", "ta", "ke"),  # ク タ ケ
        ("wa", "u", "fu"),  # ワ ウ フ
        ("ko", "yu", "ro"),  # コ ユ ロ
        ("na", "me", "no"),  # ナ メ ノ
        ("chi", "te"),  # チ テ
        ("su", "nu"),  # ス ヌ
        ("se", "ya"),  # セ ヤ
        ("ru", "re"),  # ル レ
        ("a", "ma"),  # ア マ
        ("ra", "fu"),  # ラ フ
        ("ho", "ki"),  # ホ キ
    ),
}


@dataclass(frozen=True)
class KanaInfo:
    kana_id: str
    script: str
    glyph: str
    romaji: str
    row: str
    column: str
    voicing: str
    order: int

    @property
    def is_basic(self) -> bool:
        return self.order < BASIC_COUNT


@lru_cache(maxsize=1)
def catalog() -> Mapping[tuple[str, str], KanaInfo]:
    """All 142 kana, keyed by (kana_id, script), in catalog order."""
    rows = json.loads(KANA_PATH.read_text(encoding="utf-8"))
    table = {}
    for row in rows:
        fields = row["fields"]
        info = KanaInfo(
            kana_id=fields["kana_id"],
            script=fields["script"],
            glyph=fields["glyph"],
            romaji=fields["romaji"],
            row=fields["row"],
            column=fields["column"],
            voicing=fields["voicing"],
            order=int(fields["order"]),
        )
        table[(info.kana_id, info.script)] = info
    return table


def kana_ids(script: str, *, basic_only: bool = False) -> list[str]:
    """Kana ids of one script in gojūon order."""
    infos = [info for (_, s), info in catalog().items() if s == script]
    infos.sort(key=lambda info: info.order)
    return [info.kana_id for info in infos if info.is_basic or not basic_only]


def info(kana_id: str, script: str) -> KanaInfo:
    """One kana (``KeyError`` for an unknown id or script)."""
    return catalog()[(kana_id, script)]


_VOICED_BASE = {"ga": "ka", "za": "sa", "da": "ta", "ba": "ha", "pa": "ha"}


def _voicing_siblings(kana: KanaInfo) -> list[str]:
    """Plain/voiced/half-voiced kana sharing the same base glyph (か が, は ば ぱ)."""
    base_row = _VOICED_BASE.get(kana.row, kana.row)
    return [
        other.kana_id
        for (other_id, script), other in catalog().items()
        if script == kana.script
        and other_id != kana.kana_id
        and _VOICED_BASE.get(other.row, other.row) == base_row
        and other.column == kana.column
        and other.row != "n"
    ]


@lru_cache(maxsize=512)
def look_alikes(kana_id: str, script: str) -> tuple[str, ...]:
    """Kana that look like this one, most similar first (visual groups, then voicing)."""
    kana = info(kana_id, script)
    found: list[str] = []
    for group in VISUAL_CONFUSABLES.get(script, ()):
        if kana_id in group:
            found.extend(other for other in group if other != kana_id and other not in found)
    found.extend(other for other in _voicing_siblings(kana) if other not in found)
    return tuple(found)


def confusable_ids(script: str) -> frozenset[str]:
    """Kana ids belonging to a visual look-alike group in this script."""
    return frozenset(k for group in VISUAL_CONFUSABLES.get(script, ()) for k in group)


def distractors(
    *,
    kana_id: str,
    script: str,
    learned: Iterable[str] = (),
    count: int = 3,
    rng: random.Random,
) -> list[str]:
    """``count`` wrong choices for a prompt about ``kana_id``.

    Order of preference: the learner's own past confusions (``learned``, most frequent
    first), the visual look-alikes, kana of the same row, of the same column, then any
    kana of the script. Only kana with a different reading are used.
    """
    kana = info(kana_id, script)
    chosen: list[str] = []

    def take(candidates: Iterable[str]) -> None:
        for other in candidates:
            if len(chosen) >= count:
                return
            if other == kana_id or other in chosen or (other, script) not in catalog():
                continue
            if info(other, script).romaji == kana.romaji:
                continue  # じ/ぢ, ず/づ read the same: never both in one question
            chosen.append(other)

    take(learned)
    take(look_alikes(kana_id, script))
    if len(chosen) < count:
        same_row, same_column, pool = _neighbours(kana_id, script)
        for group in (same_row, same_column, pool):
            if len(chosen) >= count:
                break
            take(rng.sample(group, len(group)))
    return chosen


@lru_cache(maxsize=512)
def _neighbours(kana_id: str, script: str) -> tuple[tuple[str, ...], ...]:
    """(same row, same column, every other kana) of the script, in catalog order."""
    kana = info(kana_id, script)
    pool = tuple(k for k in kana_ids(script) if k != kana_id)
    same_row = tuple(k for k in pool if info(k, script).row == kana.row)
    same_column = tuple(k for k in pool if info(k, script).column == kana.column)
    return same_row, same_column, pool


_SMALL_Y = {"ゃ": "ya", "ゅ": "yu", "ょ": "yo", "ャ": "ya", "ュ": "yu", "ョ": "yo"}
_SOKUON = {"っ", "ッ"}
_PALATAL = {"shi": "sh", "chi": "ch", "ji": "j"}  # しゃ sha, ちゃ cha, じゃ ja (Hepburn)


def _palatalise(before: str, small: str) -> str:
    """き + ゃ -> kya; し + ゃ -> sha (the "i" of the kana before gives way)."""
    for full, short in _PALATAL.items():
        if before.endswith(full):
            return before[: -len(full)] + short + small[1:]
    return before[:-1] + small


def romanise(text: str) -> str:
    """Kana in ``text`` spelled in Hepburn romaji (ゆき -> yuki, しょうた -> shouta,
    きっと -> kitto); other characters are kept, the long-vowel mark ー is dropped."""
    glyphs = {kana.glyph: kana.romaji for kana in catalog().values()}
    out: list[str] = []
    double_next = False
    for char in text:
        if char in _SOKUON:
            double_next = True
            continue
        if char in _SMALL_Y and out and out[-1].endswith("i"):
            out.append(_palatalise(out.pop(), _SMALL_Y[char]))
            continue
        if char == "ー":
            continue
        spelled = glyphs.get(char, char)
        if double_next and spelled[:1].isalpha() and spelled[:1] not in "aeiou":
            spelled = ("t" if spelled.startswith("ch") else spelled[0]) + spelled
        double_next = False
        out.append(spelled)
    return "".join(out)
