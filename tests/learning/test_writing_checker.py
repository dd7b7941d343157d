"""The writing checker (learning/writing.py): a learner's strokes against KanjiVG's.

Every kana of the catalog, drawn from its own strokes as a hand would (wobbly, resampled at
another density, scaled, moved, slightly stretched and turned), is accepted; a stroke drawn
backwards, two strokes swapped, a stroke left out or added, and another kana's strokes are
refused with the reason the learner is shown. Pure Python: no database.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from learning import kana_table
from learning import writing as w

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from writing_margins import hand_drawn  # noqa: E402  (the simulated hand, one definition)

KANA = sorted(kana_table.catalog())  # (kana_id, script)
GLYPHS = [kana_table.info(k, s).glyph for k, s in KANA]


def glyph_of(kana_id: str, script: str) -> str:
    return kana_table.info(kana_id, script).glyph


def same_script(glyph: str) -> list[str]:
    script = next(s for k, s in KANA if glyph_of(k, s) == glyph)
    return [glyph_of(k, s) for k, s in KANA if s == script and glyph_of(k, s) != glyph]


def in_canvas(strokes):
    """The drawing as the canvas posts it: in a box of side 1."""
    xs = [x for s in strokes for x, _ in s]
    ys = [y for s in strokes for _, y in s]
    side = max(max(xs) - min(xs), max(ys) - min(ys))
    return [
        [[0.1 + 0.8 * (x - min(xs)) / side, 0.1 + 0.8 * (y - min(ys)) / side] for x, y in s]
        for s in strokes
    ]


# --- every kana, drawn from its own strokes -------------------------------------------------


def test_the_catalog_has_142_kana_each_with_reference_strokes():
    assert len(KANA) == 142
    for glyph in GLYPHS:
        strokes = w.reference(glyph)
        assert strokes and all(len(s) >= 2 for s in strokes)


@pytest.mark.parametrize("glyph", GLYPHS)
def test_each_kana_drawn_by_hand_from_its_own_strokes_is_accepted(glyph):
    rng = random.Random(f"write:{glyph}")
    for _ in range(8):
        drawing = hand_drawn(
            w.reference(glyph),
            rng,
            scale=rng.uniform(0.2, 5),
            offset=(rng.uniform(-100, 100), rng.uniform(-100, 100)),
            stretch=(rng.uniform(0.93, 1.07), rng.uniform(0.93, 1.07)),
            turn_degrees=rng.uniform(-4, 4),
        )
        verdict = w.check(glyph, drawing)
        assert verdict.correct, (glyph, verdict)
        posted = json.dumps(in_canvas(drawing))  # and through the canvas's JSON, too
        assert w.check(glyph, w.parse_drawing(posted)).correct


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    glyph=st.sampled_from(GLYPHS),
    seed=st.integers(0, 2**32),
    scale=st.floats(0.05, 20),
    dx=st.floats(-1000, 1000),
    dy=st.floats(-1000, 1000),
    sx=st.floats(0.93, 1.07),
    sy=st.floats(0.93, 1.07),
    turn=st.floats(-4, 4),
    wobble=st.floats(0, 0.015),
)
def test_acceptance_does_not_depend_on_size_place_or_a_hand_s_wobble(
    glyph, seed, scale, dx, dy, sx, sy, turn, wobble
):
    drawing = hand_drawn(
        w.reference(glyph),
        random.Random(seed),
        scale=scale,
        offset=(dx, dy),
        stretch=(sx, sy),
        turn_degrees=turn,
        wobble=wobble,
    )
    assert w.check(glyph, drawing).correct


# --- refusals, with their reasons ---------------------------------------------------------


@pytest.mark.parametrize("glyph", GLYPHS)
def test_no_kana_s_strokes_are_accepted_as_another_kana_of_its_script(glyph):
    for other in same_script(glyph):
        assert not w.check(other, w.reference(glyph)).correct, (glyph, other)
    # and the refused drawing is named for what it is
    found = w.matching(w.reference(glyph), same_script(glyph))
    assert found == ""


@pytest.mark.parametrize(
    ("asked", "drawn"),
    [
        ("シ", "ツ"),
        ("ツ", "シ"),
        ("ソ", "ン"),
        ("ン", "ソ"),
        ("れ", "わ"),
        ("わ", "れ"),
        ("ぬ", "め"),
    ],
)
def test_classic_confusions_are_refused_and_named(asked, drawn):
    drawing = hand_drawn(w.reference(drawn), random.Random(7), scale=3, offset=(20, -5))
    verdict = w.check(asked, drawing)
    assert not verdict.correct
    assert verdict.reason in (w.SHAPE, w.REVERSED, w.MISSING, w.EXTRA, w.ORDER)
    if len(w.reference(asked)) == len(w.reference(drawn)):
        assert verdict.reason in (w.SHAPE, w.REVERSED)
    assert w.matching(drawing, same_script(asked)) == drawn


@pytest.mark.parametrize("glyph", ["シ", "ツ", "ソ", "ン", "あ", "き", "ヲ", "ぬ"])
def test_a_long_stroke_drawn_backwards_is_refused_as_reversed(glyph):
    strokes = list(w.reference(glyph))
    longest = max(range(len(strokes)), key=lambda i: math.dist(strokes[i][0], strokes[i][-1]))
    strokes[longest] = tuple(reversed(strokes[longest]))
    verdict = w.check(glyph, hand_drawn(strokes, random.Random(1), scale=2))
    assert (verdict.correct, verdict.reason, verdict.stroke) == (False, w.REVERSED, longest + 1)


def test_the_last_stroke_of_shi_drawn_down_like_tsu_s_is_reversed():
    strokes = list(w.reference("シ"))
    strokes[2] = tuple(reversed(strokes[2]))  # シ's sweep goes up; ツ's comes down
    verdict = w.check("シ", strokes)
    assert (verdict.reason, verdict.stroke) == (w.REVERSED, 3)


@pytest.mark.parametrize(("glyph", "i", "j"), [("あ", 0, 1), ("き", 1, 2), ("ホ", 0, 1)])
def test_two_strokes_swapped_are_refused_as_out_of_order(glyph, i, j):
    strokes = list(w.reference(glyph))
    strokes[i], strokes[j] = strokes[j], strokes[i]
    verdict = w.check(glyph, hand_drawn(strokes, random.Random(2)))
    assert (verdict.correct, verdict.reason, verdict.stroke, verdict.instead_of) == (
        False,
        w.ORDER,
        i + 1,
        j + 1,
    )


@pytest.mark.parametrize(("glyph", "left_out"), [("あ", 1), ("か", 0), ("ネ", 3), ("た", 2)])
def test_a_stroke_left_out_is_named_missing(glyph, left_out):
    strokes = [s for k, s in enumerate(w.reference(glyph)) if k != left_out]
    verdict = w.check(glyph, hand_drawn(strokes, random.Random(3)))
    assert (verdict.correct, verdict.reason, verdict.stroke) == (False, w.MISSING, left_out + 1)
    assert (verdict.expected, verdict.drawn) == (len(strokes) + 1, len(strokes))


def test_a_stroke_added_is_named_extra():
    strokes = list(w.reference("い"))
    scribble = ((60.0, 60.0), (70.0, 20.0), (80.0, 90.0))
    verdict = w.check("い", [strokes[0], scribble, strokes[1]])
    assert (verdict.correct, verdict.reason, verdict.stroke) == (False, w.EXTRA, 2)
    verdict = w.check("く", [*w.reference("く"), *w.reference("く"), scribble])
    assert (verdict.reason, verdict.expected, verdict.drawn) == (w.EXTRA, 1, 3)


def test_a_scribble_with_the_right_stroke_count_is_a_wrong_shape():
    scribble = [[(0, 0), (50, 100), (100, 0), (0, 100)], [(10, 50), (90, 50)]]
    verdict = w.check("い", scribble)
    assert (verdict.correct, verdict.reason, verdict.stroke) == (False, w.SHAPE, 1)
    assert w.matching(scribble, same_script("い")) == ""


def test_a_dot_or_a_tap_is_a_stroke_too():
    assert not w.check("あ", [[(0.5, 0.5)]]).correct
    assert w.check("あ", [[(0.5, 0.5)]]).reason == w.MISSING


# --- parsing what the page posts ------------------------------------------------------------


def test_a_posted_drawing_is_parsed_into_floats():
    assert w.parse_drawing("[[[0, 0.5], [1, 1]]]") == [[(0.0, 0.5), (1.0, 1.0)]]


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "not json",
        "{}",
        "[]",
        "[[]]",
        "[1, 2]",
        '[["a"]]',
        "[[[0]]]",
        "[[[0, 1, 2]]]",
        '[[["0", 1]]]',
        "[[[true, 1]]]",
        "[[[null, 1]]]",
        "[[[NaN, 1]]]",
        "[[[Infinity, 1]]]",
        "[[[-Infinity, 1]]]",
        "[[[1e999, 1]]]",
        "[[[5, 1]]]",
        "[[[0, -3]]]",
        "[" * 5000 + "]" * 5000,
        json.dumps([[[0.5, 0.5]]] * (w.MAX_STROKES + 1)),
        json.dumps([[[0.5, 0.5]] * (w.MAX_POINTS_PER_STROKE + 1)]),
        json.dumps([[[0.5, 0.5]] * 400] * 6),
        " " * (w.MAX_JSON_CHARS + 1),
        "[[[0.1,0.1]]]" + " " * w.MAX_JSON_CHARS,
    ],
)
def test_anything_but_a_drawing_within_limits_is_refused(raw):
    with pytest.raises(w.BadDrawing):
        w.parse_drawing(raw)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.text(max_size=3),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=2), c, max_size=3),
        max_leaves=30,
    )
)
def test_parsing_never_fails_with_anything_but_bad_drawing(data):
    try:
        strokes = w.parse_drawing(json.dumps(data))
    except w.BadDrawing:
        return
    assert all(math.isfinite(v) for s in strokes for p in s for v in p)
    w.check("あ", strokes)  # and the checker copes with whatever passed


@pytest.mark.parametrize("glyph", ["が", "ざ", "ド", "ヴ" if ("vu", "katakana") in KANA else "ゲ"])
def test_a_dakuten_tapped_as_two_dots_is_accepted(glyph):
    strokes = [list(s) for s in w.reference(glyph)]
    drawing = [*strokes[:-2], *([s[len(s) // 2]] for s in strokes[-2:])]  # two taps
    assert w.check(glyph, drawing).correct


def test_a_dakuten_in_the_wrong_place_is_refused():
    strokes = [list(s) for s in w.reference("が")]
    drawing = [*strokes[:-2], [(10.0, 100.0)], [(14.0, 104.0)]]  # bottom left, far from it
    verdict = w.check("が", drawing)
    assert (verdict.correct, verdict.reason, verdict.stroke) == (False, w.SHAPE, 4)


def test_one_stroke_out_of_place_is_the_one_named():
    strokes = [list(s) for s in w.reference("た")]  # 4 strokes: move the last one far down
    strokes[3] = [(x, y + 60) for x, y in strokes[3]]
    verdict = w.check("た", strokes)
    assert (verdict.correct, verdict.reason, verdict.stroke) == (False, w.SHAPE, 4)
    strokes = [list(s) for s in w.reference("き")]  # 4 strokes: the third out to the left
    strokes[2] = [(x - 50, y) for x, y in strokes[2]]
    assert w.check("き", strokes).stroke == 3
