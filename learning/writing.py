"""Writing a kana: a learner's strokes checked against KanjiVG's (pure Python, no Django).

The page's canvas posts a drawing as JSON: a list of strokes, each a list of ``[x, y]``
points in a box of side 1 (``x`` right, ``y`` down, like SVG and canvas). ``parse_drawing``
refuses anything else (``BadDrawing``: the view answers 400 and records nothing).

``check(glyph, drawing)`` grades it against the strokes KanjiVG draws for ``glyph``
(``learning.strokes``; each path is a chain of cubic Béziers, sampled into points):

1. the number of strokes must be the same; otherwise the verdict names the stroke missing
   or extra (found by leaving out each stroke in turn when exactly one is off);
2. both drawings are normalised the same way: centred on their bounding box and scaled so
   that its longer side is 1 (size and place on the canvas do not matter, proportions do);
3. each stroke is resampled to ``SAMPLES`` points evenly spaced along its length and
   compared, in order, with the reference stroke of the same rank, twice: in the drawing's
   box (its place: the mean distance between corresponding points at most ``SHAPE_LIMIT``)
   and in its own box (its form: the worst quarter of those distances at most
   ``FORM_LIMIT``; only for strokes at least ``FORM_FROM`` long, since the form of a tick
   or a small circle drawn by a finger is mostly noise). Points are compared start with
   start, so a stroke drawn backwards is far from its reference: when the reversed stroke
   fits, the verdict says "reversed"; when another stroke of the kana fits, "out of
   order"; otherwise "wrong shape". A short stroke (a dakuten tick) is accepted in either
   direction: its two ends are too close to tell. One stroke far from its place widens the
   box and shifts all the others, so before blaming the first stroke that fails, the
   checker looks for the stroke (or pair of strokes) whose leaving out makes the others fit
   and names it (``_blame``).

The limits were measured (docs/learning.md, "Writing"; bench/writing_margins.py):
all 142 kana drawn from their own strokes with a hand's wobble (1.5 % of the box), at any
size and place, stretched up to 7 % per axis and turned up to 4°, stay below 0.112 (place)
and 0.147 (form) over 5,680 drawings; no kana's reference drawing fits another kana of the
same script (the closest pair, れ and わ, differ by their form, 5 % beyond its limit).
``matching(drawing, glyphs)`` names the kana a refused drawing is in fact (the confusion:
ン drawn when ソ was asked).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from learning.strokes import NoDrawing, strokes_of

Point = tuple[float, float]
Stroke = tuple[Point, ...]

SAMPLES = 32  # points per stroke once resampled
SHAPE_LIMIT = 0.14  # mean distance between a stroke and its reference, drawing's side = 1
FORM_LIMIT = 0.22  # the worst quarter of the distances, each stroke in its own box of side 1
FORM_FROM = 0.3  # strokes shorter than this (ticks, dots, small circles): place only
THINNED = 96  # points a drawn stroke is thinned to before it is compared (see _thinned)
CURVE_STEPS = 12  # points sampled on each cubic Bézier of a KanjiVG path
# Input limits: a canvas decimates its points (js/writing.js), a person draws far fewer.
MAX_STROKES = 16
MAX_POINTS_PER_STROKE = 500
MAX_POINTS = 2_000
MAX_JSON_CHARS = 60_000
COORD_MIN, COORD_MAX = -0.5, 1.5  # a finger may slip past the box's edge, not farther

# Reasons a drawing is refused (shown to the learner, translated by the page).
MISSING = "missing"  # fewer strokes than the kana has
EXTRA = "extra"  # more strokes than the kana has
REVERSED = "reversed"  # a stroke drawn from its end to its start
ORDER = "order"  # a stroke of the kana, drawn at another rank
SHAPE = "shape"  # a stroke that matches none of the kana's strokes


class BadDrawing(ValueError):
    """A posted drawing that is not a list of strokes of finite points within limits."""


@dataclass(frozen=True)
class Verdict:
    correct: bool
    reason: str = ""  # "" when correct; else one of MISSING, EXTRA, REVERSED, ORDER, SHAPE
    stroke: int = 0  # the stroke concerned (1-based; in the learner's drawing), 0: none
    expected: int = 0  # strokes the kana has
    drawn: int = 0  # strokes the learner drew
    instead_of: int = 0  # ORDER: the rank this stroke has in the kana (1-based)


# --- input --------------------------------------------------------------------------------


def parse_drawing(raw: str) -> list[list[Point]]:
    """The drawing a form posted (JSON text), checked: ``BadDrawing`` with a message."""
    if not isinstance(raw, str) or not raw.strip():
        raise BadDrawing("no drawing")
    if len(raw) > MAX_JSON_CHARS:
        raise BadDrawing("drawing too large")
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise BadDrawing("not a drawing") from exc
    return validate_drawing(data)


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a coordinate")


def validate_drawing(data: object) -> list[list[Point]]:
    """``data`` as a list of strokes of (x, y) floats, or ``BadDrawing``."""
    if not isinstance(data, list) or not data:
        raise BadDrawing("a drawing is a non-empty list of strokes")
    if len(data) > MAX_STROKES:
        raise BadDrawing("too many strokes")
    strokes, total = [], 0
    for stroke in data:
        if not isinstance(stroke, list) or not stroke:
            raise BadDrawing("a stroke is a non-empty list of points")
        if len(stroke) > MAX_POINTS_PER_STROKE:
            raise BadDrawing("too many points in a stroke")
        total += len(stroke)
        if total > MAX_POINTS:
            raise BadDrawing("too many points")
        points = []
        for point in stroke:
            if not isinstance(point, list) or len(point) != 2:
                raise BadDrawing("a point is a pair [x, y]")
            x, y = point
            if not all(type(v) in (int, float) for v in (x, y)):  # bool is no coordinate
                raise BadDrawing("coordinates are numbers")
            x, y = float(x), float(y)
            if not (math.isfinite(x) and math.isfinite(y)):
                raise BadDrawing("coordinates are finite numbers")
            if not (COORD_MIN <= x <= COORD_MAX and COORD_MIN <= y <= COORD_MAX):
                raise BadDrawing("a point is outside the drawing box")
            points.append((x, y))
        strokes.append(points)
    return strokes


# --- reference strokes ----------------------------------------------------------------------

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COMMAND = re.compile(r"([MmCcLl])([^MmCcLl]*)")


def path_points(d: str) -> Stroke:
    """The points of one KanjiVG stroke path (``M``/``m``, ``C``/``c``, ``L``/``l``)."""
    points: list[Point] = []
    x = y = 0.0
    for command, args in _COMMAND.findall(d):
        values = [float(v) for v in _NUMBER.findall(args)]
        relative = command.islower()
        kind = command.upper()
        if kind == "M" or kind == "L":
            for i in range(0, len(values) - 1, 2):
                dx, dy = values[i], values[i + 1]
                x, y = (x + dx, y + dy) if relative else (dx, dy)
                points.append((x, y))
        else:
            for i in range(0, len(values) - 5, 6):
                c = values[i : i + 6]
                ox, oy = (x, y) if relative else (0.0, 0.0)
                p1 = (ox + c[0], oy + c[1])
                p2 = (ox + c[2], oy + c[3])
                p3 = (ox + c[4], oy + c[5])
                start = (x, y)
                for step in range(1, CURVE_STEPS + 1):
                    points.append(_bezier(start, p1, p2, p3, step / CURVE_STEPS))
                x, y = p3
    if not points:
        raise ValueError(f"no points in path {d!r}")
    return tuple(points)


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point, t: float) -> Point:
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return (
        a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
        a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
    )


@lru_cache(maxsize=512)
def reference(glyph: str) -> tuple[Stroke, ...]:
    """KanjiVG's strokes of ``glyph`` as points (109 × 109 box), in writing order."""
    return tuple(path_points(d) for d in strokes_of(glyph).paths)


def drawable(glyph: str) -> bool:
    """Does KanjiVG draw ``glyph`` here (the ``kanjivg`` package installed, the file there)?"""
    try:
        reference(glyph)
    except NoDrawing:
        return False
    return True


@lru_cache(maxsize=512)
def _reference_shapes(glyph: str) -> tuple[Shape, ...]:
    return shapes(reference(glyph))


# --- geometry -------------------------------------------------------------------------------


Frame = tuple[float, float, float]  # centre x, centre y, scale


def frame_of(strokes: Sequence[Sequence[Point]]) -> Frame:
    """The centre of the strokes' bounding box, and the scale that makes its longer side 1."""
    xs = [p[0] for s in strokes for p in s]
    ys = [p[1] for s in strokes for p in s]
    side = max(max(xs) - min(xs), max(ys) - min(ys))
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, 1 / side if side > 1e-9 else 1.0


def normalise(strokes: Sequence[Sequence[Point]], frame: Frame | None = None) -> list[list[Point]]:
    """Centred on the drawing's bounding box, its longer side scaled to 1 (or in ``frame``)."""
    cx, cy, scale = frame or frame_of(strokes)
    return [[((x - cx) * scale, (y - cy) * scale) for x, y in s] for s in strokes]


def resample(points: Sequence[Point], n: int = SAMPLES) -> Stroke:
    """``n`` points evenly spaced along the polyline ``points`` (its ends included)."""
    if len(points) == 1:
        return tuple(points[0] for _ in range(n))
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:], strict=False)]
    total = sum(lengths)
    if total <= 1e-12:
        return tuple(points[0] for _ in range(n))
    out: list[Point] = [points[0]]
    step, seg, walked, last = total / (n - 1), 0, 0.0, len(lengths) - 1
    length = lengths[0]
    for k in range(1, n - 1):
        target = k * step
        while seg < last and walked + length < target:  # the segment holding ``target``
            walked += length
            seg += 1
            length = lengths[seg]
        (ax, ay), (bx, by) = points[seg], points[seg + 1]
        t = (target - walked) / length if length > 0 else 0.0
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        out.append((ax + (bx - ax) * t, ay + (by - ay) * t))
    out.append(points[-1])
    return tuple(out)


def distance(a: Stroke, b: Stroke) -> float:
    """Mean distance between corresponding points of two resampled strokes."""
    return sum(math.dist(p, q) for p, q in zip(a, b, strict=True)) / len(a)


def _flip(stroke: Stroke) -> Stroke:
    return tuple(reversed(stroke))


# --- grading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """One stroke as compared: resampled in the drawing's normalised box (``placed``), and
    resampled in its own box (``alone``, its form whatever its size); ``extent``: the longer
    side of its box, in the drawing's."""

    placed: Stroke
    alone: Stroke
    extent: float

    def flipped(self) -> Shape:
        return Shape(_flip(self.placed), _flip(self.alone), self.extent)


def shapes(strokes: Sequence[Sequence[Point]], frame: Frame | None = None) -> tuple[Shape, ...]:
    """Normalised (in the strokes' own frame, or ``frame``), then resampled: what strokes
    are compared as."""
    out = []
    for stroke in normalise(strokes, frame):
        xs, ys = [p[0] for p in stroke], [p[1] for p in stroke]
        extent = max(max(xs) - min(xs), max(ys) - min(ys))
        out.append(Shape(resample(stroke), resample(normalise([stroke])[0]), extent))
    return tuple(out)


def _worst_part(a: Stroke, b: Stroke) -> float:
    """Mean of the largest quarter of the distances between corresponding points."""
    gaps = sorted((math.dist(p, q) for p, q in zip(a, b, strict=True)), reverse=True)
    worst = gaps[: max(1, len(gaps) // 4)]
    return sum(worst) / len(worst)


def stroke_fits(mine: Shape, theirs: Shape) -> bool:
    """Is ``mine`` drawn like the reference stroke ``theirs`` (same place, same direction,
    same form)? The form is judged only for strokes of some size (``FORM_FROM``)."""
    if distance(mine.placed, theirs.placed) > SHAPE_LIMIT:
        return False
    return theirs.extent < FORM_FROM or _worst_part(mine.alone, theirs.alone) <= FORM_LIMIT


def _fits(drawn: Sequence[Shape], ref: Sequence[Shape]) -> bool:
    return all(stroke_fits(d, r) for d, r in zip(drawn, ref, strict=True))


def _cost(drawn: Sequence[Shape], ref: Sequence[Shape]) -> float:
    return sum(distance(d.placed, r.placed) for d, r in zip(drawn, ref, strict=True))


def _odd_one(longer: Sequence[Sequence[Point]], shorter: Sequence[Shape]) -> int:
    """Which stroke of ``longer`` (one more than ``shorter``) left out makes the best match:
    its index, or -1 when no choice makes the rest match."""
    best, best_cost = -1, math.inf
    for k in range(len(longer)):
        rest = shapes([s for i, s in enumerate(longer) if i != k])
        if _fits(rest, shorter):
            cost = _cost(rest, shorter)
            if cost < best_cost:
                best, best_cost = k, cost
    return best


def _thinned(drawing: Sequence[Sequence[Point]]) -> list[Stroke]:
    """Each stroke resampled to ``THINNED`` points at most (evenly along it): a canvas posts
    hundreds, and every comparison below would walk them all."""
    return [tuple(s) if len(s) <= THINNED else resample(s, THINNED) for s in drawing]


def _blame(
    drawing: Sequence[Sequence[Point]], ref: Sequence[Sequence[Point]]
) -> tuple[int, str] | None:
    """The stroke to blame (index, reason) when leaving it out, or it and one more, makes the
    other strokes (two at least) fit; the best fit wins, one stroke before two. None when no
    such stroke. A stroke far from its place (a dakuten at the bottom) widens the drawing's
    box and so shifts every other stroke: the first stroke compared would be blamed instead.
    The stroke is judged in the frame of the others: drawn backwards there, or not in its
    shape or place."""
    n = len(ref)
    singles = [(k,) for k in range(n)]
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    for groups in (singles, pairs):
        best, best_cost = None, math.inf
        for group in groups:
            rest_d = [s for i, s in enumerate(drawing) if i not in group]
            rest_r = [s for i, s in enumerate(ref) if i not in group]
            if len(rest_r) < 2:
                continue
            mine, theirs = shapes(rest_d), shapes(rest_r)
            if _fits(mine, theirs) and _cost(mine, theirs) < best_cost:
                best, best_cost = group, _cost(mine, theirs)
        if best is not None:
            rest_d = [s for i, s in enumerate(drawing) if i not in best]
            rest_r = [s for i, s in enumerate(ref) if i not in best]
            (mine,) = shapes([drawing[best[0]]], frame_of(rest_d))
            (theirs,) = shapes([ref[best[0]]], frame_of(rest_r))
            return best[0], REVERSED if stroke_fits(mine.flipped(), theirs) else SHAPE
    return None


def check(glyph: str, drawing: Sequence[Sequence[Point]]) -> Verdict:
    """Grade ``drawing`` (validated points, any box) as the kana ``glyph``."""
    drawing = _thinned(drawing)
    ref_points = reference(glyph)
    ref = _reference_shapes(glyph)
    n, m = len(ref), len(drawing)
    counts = {"expected": n, "drawn": m}
    if m < n:
        stroke = m + 1  # the first stroke not drawn, unless one stroke in the middle lacks
        if n - m == 1:
            left_out = _odd_one(ref_points, shapes(drawing))
            stroke = left_out + 1 if left_out >= 0 else stroke
        return Verdict(False, MISSING, stroke, **counts)
    if m > n:
        stroke = n + 1
        if m - n == 1:
            left_out = _odd_one(drawing, ref)
            stroke = left_out + 1 if left_out >= 0 else stroke
        return Verdict(False, EXTRA, stroke, **counts)
    drawn = shapes(drawing)
    for i, (mine, theirs) in enumerate(zip(drawn, ref, strict=True)):
        if stroke_fits(mine, theirs):
            continue
        if stroke_fits(mine.flipped(), theirs):
            return Verdict(False, REVERSED, i + 1, **counts)
        for j, other in enumerate(ref):
            if j != i and stroke_fits(mine, other):
                return Verdict(False, ORDER, i + 1, instead_of=j + 1, **counts)
        blamed = _blame(drawing, ref_points)  # a stroke out of place moves the frame
        if blamed is not None:
            return Verdict(False, blamed[1], blamed[0] + 1, **counts)
        return Verdict(False, SHAPE, i + 1, **counts)
    return Verdict(True, **counts)


def in_reference_box(glyph: str, drawing: Sequence[Sequence[Point]]) -> list[list[Point]]:
    """``drawing`` placed over KanjiVG's drawing of ``glyph`` (its 109-unit box: same centre,
    same longer side), each stroke resampled to ``SAMPLES`` points, rounded: what the page
    shows beside the reference after an answer."""
    ref = reference(glyph)
    rx, ry, rscale = frame_of(ref)
    return [
        [(round(x / rscale + rx, 1), round(y / rscale + ry, 1)) for x, y in resample(stroke)]
        for stroke in normalise(_thinned(drawing))
    ]


def matching(drawing: Sequence[Sequence[Point]], glyphs: Iterable[str]) -> str:
    """The first of ``glyphs`` whose strokes ``drawing`` matches, or "" (the confusion of a
    refused drawing: e.g. ン drawn when ソ was asked)."""
    drawing = _thinned(drawing)
    drawn = None
    for glyph in glyphs:
        ref = _reference_shapes(glyph)
        if len(ref) != len(drawing):
            continue
        drawn = drawn if drawn is not None else shapes(drawing)
        if _fits(drawn, ref):
            return glyph
    return ""
