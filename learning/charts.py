"""Server-rendered SVG charts: plain geometry, drawn by a template (no chart library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.utils import formats


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    ok_y: float
    ok_height: float
    day: date
    reviews: int
    correct: int


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    max_value: int
    total: int
    ticks: tuple[tuple[float, str], ...]  # (x, label) every week


def bar_chart(series: Sequence, *, width: int = 600, height: int = 140) -> BarChart:
    """Bars of ``reviews`` (with the ``correct`` part) per day; ``series`` items have
    ``day``, ``reviews`` and ``correct``."""
    top = max((item.reviews for item in series), default=0)
    scale = (height - 20) / top if top else 0.0
    step = width / max(len(series), 1)
    bars, ticks = [], []
    for index, item in enumerate(series):
        h = item.reviews * scale
        ok = item.correct * scale
        x = index * step
        bars.append(
            Bar(
                x=round(x + 1, 1),
                y=round(height - 16 - h, 1),
                width=round(max(step - 2, 1), 1),
                height=round(h, 1),
                ok_y=round(height - 16 - ok, 1),
                ok_height=round(ok, 1),
                day=item.day,
                reviews=item.reviews,
                correct=item.correct,
            )
        )
        if index % 7 == 0:
            # month and day as the page's language writes them (11月30日, 30 novembre)
            ticks.append((round(x + 1, 1), formats.date_format(item.day, "MONTH_DAY_FORMAT")))
    return BarChart(
        width=width,
        height=height,
        bars=tuple(bars),
        max_value=top,
        total=sum(item.reviews for item in series),
        ticks=tuple(ticks),
    )
