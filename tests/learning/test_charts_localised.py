"""Charts draw in every language: localised numbers never enter SVG or numeric attributes.

In French Django formats 124.0 as "124,0"; an SVG ``height="124,0"`` is invalid, the browser
draws no bar and logs an error per bar (issue 25, item 5). Every page with a chart is rendered
in French and Japanese, its SVG and ``<progress>`` attributes are parsed, and every numeric
attribute must read as a number.
"""

from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest
from django.conf import settings

from learning.demo_learning import history_build

pytestmark = pytest.mark.django_db

# SVG geometry and the numeric attributes of form gauges
NUMERIC = {
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "width",
    "height",
    "pathlength",
    "stroke-width",
    "font-size",
    "value",
    "max",
    "min",
    "low",
    "high",
}
NOW = datetime.now(tz=UTC)


class NumericAttributes(HTMLParser):
    """Collects (tag, attribute, value) of the numbers in SVG elements and gauges."""

    def __init__(self) -> None:
        super().__init__()
        self.svg_depth = 0
        self.svgs = 0
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "svg":
            self.svg_depth += 1
            self.svgs += 1
        if not (self.svg_depth or tag in {"progress", "meter"}):
            return
        for name, value in attrs:
            if name == "viewbox":
                self.found += [(tag, name, part) for part in value.split()]
                self.found.append((tag, "viewbox-count", str(len(value.split()))))
            elif name in NUMERIC:
                self.found.append((tag, name, value))

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.svg_depth -= 1


def unparsable(html: str) -> tuple[list[str], NumericAttributes]:
    parser = NumericAttributes()
    parser.feed(html)
    bad = []
    for tag, name, value in parser.found:
        if name == "viewbox-count":
            if value != "4":
                bad.append(f"<{tag} viewBox> has {value} numbers")
            continue
        try:
            float(value)
        except ValueError:
            bad.append(f'<{tag} {name}="{value}">')
    return bad, parser


@pytest.fixture
def histories(bob, dana):
    for learner in (bob, dana):
        history_build(learner=learner, days=30, answers_per_day=20, exposures_per_day=10, now=NOW)


@pytest.mark.parametrize("language", ["fr", "ja"])
def test_every_chart_parses_in_french_and_japanese(
    client, histories, alice, alice_class, bob, dana, language
):
    class_id = alice_class.pk
    pages = {
        dana: ["/learn/", "/learn/kana/hiragana/nu/"],
        alice: [f"/teach/{class_id}/", f"/teach/{class_id}/students/{bob.pk}/",
                f"/teach/{class_id}/kana/hiragana/nu/"],
    }  # fmt: skip
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    svgs = 0
    for user, paths in pages.items():
        client.force_login(user)
        for path in paths:
            response = client.get(path)
            html = response.content.decode()
            assert response.status_code == 200, path
            assert f'<html lang="{language}">' in html, path
            bad, parser = unparsable(html)
            assert not bad, f"{language} {path}: " + ", ".join(bad[:5])
            svgs += parser.svgs
    assert svgs >= 4  # two histories, two stroke orders


def test_the_history_bars_have_heights_in_french(client, histories, dana):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(dana)
    _, parser = unparsable(client.get("/learn/").content.decode())
    heights = [float(v) for tag, name, v in parser.found if tag == "rect" and name == "height"]
    assert len(heights) == 60 and max(heights) > 0  # 30 days, two bars each
