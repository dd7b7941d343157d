"""Stroke order of every kana, from KanjiVG's drawings (pure Python, no Django).

KanjiVG (https://kanjivg.tagaini.net, copyright Ulrich Apel, CC BY-SA 3.0) draws each
character as one SVG path per stroke, in writing order (``id="kvg:03042-s1"``, ``-s2``...),
and places the stroke numbers. The ``kanjivg`` package of the package index ships those files
as ``kanji/<code point, 5 hex digits>.svg`` in its distribution; they are read once per glyph
and only the path data and number positions are kept: pages draw them as inline SVG
animated by CSS (``static/css/kanagame.css``: one class per stroke), so no script and no
request for an image is needed. The attribution is shown wherever a drawing is.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
STROKE_ID = re.compile(r"^kvg:[0-9a-f]{5}-s(\d+)$")
NUMBER_AT = re.compile(r"matrix\(1 0 0 1 ([\d.]+) ([\d.]+)\)")
VIEW_BOX = "0 0 109 109"
MAX_STROKES = 12  # the CSS has one delay class per stroke up to this number
ATTRIBUTION = "KanjiVG, © Ulrich Apel, CC BY-SA 3.0"
ATTRIBUTION_URL = "https://kanjivg.tagaini.net"
LICENCE_URL = "https://creativecommons.org/licenses/by-sa/3.0/"


@dataclass(frozen=True)
class Strokes:
    glyph: str
    paths: tuple[str, ...]  # SVG path data, one per stroke, in writing order
    numbers: tuple[tuple[float, float], ...]  # where each stroke's number is printed

    @property
    def count(self) -> int:
        return len(self.paths)


class NoDrawing(LookupError):
    """KanjiVG has no drawing of this character (or the package is not installed)."""


def drawing_path(glyph: str) -> Path:
    """The KanjiVG file of ``glyph`` inside the installed ``kanjivg`` distribution."""
    if len(glyph) != 1:
        raise NoDrawing(f"one character expected, got {glyph!r}")
    try:
        dist = distribution("kanjivg")
    except PackageNotFoundError as exc:
        raise NoDrawing("the kanjivg package is not installed") from exc
    path = Path(str(dist.locate_file(f"kanji/{ord(glyph):05x}.svg")))
    if not path.is_file():
        raise NoDrawing(f"KanjiVG has no drawing of {glyph!r}")
    return path


@lru_cache(maxsize=256)
def strokes_of(glyph: str) -> Strokes:
    """The strokes of ``glyph`` in writing order (``NoDrawing`` when KanjiVG lacks it)."""
    # KanjiVG files declare an internal DTD (attribute defaults only, no entities): parsing
    # them with the standard library expands nothing from outside the file.
    root = ET.parse(drawing_path(glyph)).getroot()  # noqa: S314 - a file of an installed package
    numbered = []
    for path in root.iter(f"{SVG}path"):
        found = STROKE_ID.match(path.get("id", ""))
        if found:
            numbered.append((int(found.group(1)), path.get("d", "")))
    numbered.sort()
    if [n for n, _d in numbered] != list(range(1, len(numbered) + 1)) or not numbered:
        raise NoDrawing(f"the strokes of {glyph!r} are not numbered 1..n")
    numbers = []
    for text in root.iter(f"{SVG}text"):
        found = NUMBER_AT.search(text.get("transform", ""))
        if found:
            numbers.append((float(found.group(1)), float(found.group(2))))
    return Strokes(glyph=glyph, paths=tuple(d for _n, d in numbered), numbers=tuple(numbers))
