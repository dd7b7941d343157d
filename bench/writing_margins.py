"""The writing checker's margins (learning/writing.py; docs/learning.md § Writing).

    .venv/bin/python bench/writing_margins.py            # the three hands, 40 drawings a kana
    .venv/bin/python bench/writing_margins.py --per-kana 10

For every kana of the catalog, drawings made from its own KanjiVG strokes by a simulated hand
(``hand_drawn``: each stroke resampled at its own density, a slow wobble, a little jitter per
point, then turned, stretched per axis, scaled and moved) are checked; the script prints the
worst place and form distances met against their limits and how many drawings were refused,
for the hand the tests use and two heavier ones. Then the closest pairs of distinct kana of a
script: how far (in units of the limits) one's reference drawing is from fitting the other's.
No Django needed; seeded, so the figures in docs/learning.md come back.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from learning import kana_table  # noqa: E402
from learning import writing as w  # noqa: E402

HANDS = (  # (wobble, turn in degrees, stretch): the tests' hand, then heavier ones
    (0.015, 4, 0.07),
    (0.02, 5, 0.10),
    (0.025, 6, 0.12),
)


def hand_drawn(
    strokes,
    rng: random.Random,
    *,
    scale: float = 1.0,
    offset: tuple[float, float] = (0.0, 0.0),
    stretch: tuple[float, float] = (1.0, 1.0),
    turn_degrees: float = 0.0,
    wobble: float = 0.015,
    noise: float = 0.003,
):
    """``strokes`` (KanjiVG's 109-unit box) as a hand would draw them: each stroke resampled
    at its own density (a canvas posts many points), a slow wobble (``wobble`` of the box) and
    a little jitter per point (``noise``), then turned, stretched per axis, scaled and moved."""
    angle = math.radians(turn_degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    drawn = []
    for stroke in strokes:
        points = w.resample(stroke, rng.randint(24, 80))
        phase_x, phase_y = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
        out = []
        for k, (x, y) in enumerate(points):
            t = 3 * k / len(points)
            x += wobble * 109 * math.sin(phase_x + t) + rng.gauss(0, noise * 109)
            y += wobble * 109 * math.sin(phase_y + t) + rng.gauss(0, noise * 109)
            x, y = x * cos - y * sin, x * sin + y * cos
            out.append((x * stretch[0] * scale + offset[0], y * stretch[1] * scale + offset[1]))
        drawn.append(out)
    return drawn


def glyphs() -> list[tuple[str, str]]:
    return [(kana_table.info(k, s).glyph, s) for k, s in sorted(kana_table.catalog())]


def distances(drawn, ref) -> tuple[float, float]:
    """The worst place and form distances of a drawing's strokes from the reference's."""
    place = max(w.distance(a.placed, b.placed) for a, b in zip(drawn, ref, strict=True))
    form = max(
        (
            w._worst_part(a.alone, b.alone)
            for a, b in zip(drawn, ref, strict=True)
            if b.extent >= w.FORM_FROM
        ),
        default=0.0,
    )
    return place, form


def hands(per_kana: int) -> None:
    for wobble, turn, stretch in HANDS:
        rng = random.Random(5)
        worst_place = worst_form = 0.0
        refused = total = 0
        for glyph, _script in glyphs():
            ref = w._reference_shapes(glyph)
            for _ in range(per_kana):
                drawing = hand_drawn(
                    w.reference(glyph),
                    rng,
                    scale=rng.uniform(0.2, 5),
                    stretch=(
                        rng.uniform(1 - stretch, 1 + stretch),
                        rng.uniform(1 - stretch, 1 + stretch),
                    ),
                    turn_degrees=rng.uniform(-turn, turn),
                    wobble=wobble,
                )
                place, form = distances(w.shapes(drawing), ref)
                worst_place, worst_form = max(worst_place, place), max(worst_form, form)
                refused += not w.check(glyph, drawing).correct
                total += 1
        print(
            f"wobble {wobble:.1%}, turn ±{turn}°, stretch ±{stretch:.0%}: "
            f"worst place {worst_place:.3f} (limit {w.SHAPE_LIMIT}), "
            f"worst form {worst_form:.3f} (limit {w.FORM_LIMIT}), refused {refused}/{total}"
        )


def closest_pairs(count: int = 6) -> None:
    pairs = []
    for glyph, script in glyphs():
        for other, other_script in glyphs():
            if other <= glyph or other_script != script:
                continue
            a, b = w._reference_shapes(glyph), w._reference_shapes(other)
            if len(a) != len(b):
                continue
            place, form = distances(a, b)
            pairs.append((max(place / w.SHAPE_LIMIT, form / w.FORM_LIMIT), glyph, other))
    pairs.sort()
    print("closest pairs (1.00 = at the limit):")
    for score, glyph, other in pairs[:count]:
        print(f"  {glyph}/{other}: {score:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kana", type=int, default=40)
    args = parser.parse_args()
    hands(args.per_kana)
    closest_pairs()


if __name__ == "__main__":
    main()
