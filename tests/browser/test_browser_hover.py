"""A card button stays put under a resting pointer (issue 29's journeys, docs/web.md).

A hover style that moved the button itself (``transform: translateY(-2px)``) made a pointer
resting on the button's bottom 2 px lose the hover, the button drop back under it and be
hovered again, every frame: the card flickered for a mouse user and Playwright, which clicks
only a button whose box holds still, timed out ("not stable") in a Koi-Koi journey. The site's
own stylesheets are loaded into a page with the card buttons each game's board renders; the
pointer rests 1 px above each button's bottom edge, near its top and in its middle.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
BUTTONS = """
<div class="romaji-hover">
  <div class="cards card-buttons"><button class="card-button" name="action">
    <span class="kana-card"><span class="glyph">し</span><span class="romaji">shi</span></span>
  </button></div>
  <div class="koikoi"><div class="card-buttons"><button class="card-button" name="action">
    <span class="hanafuda"><span class="hf-kind">タネ</span>
      <span class="hf-romaji">kiku</span></span>
  </button></div></div>
  <div class="yokai"><button class="yk-card-button" name="action">き</button></div>
  <p><button type="submit">OK</button></p>
</div>"""
FRAMES = """async (index) => {
  const button = document.querySelectorAll('button')[index];
  const boxes = [];
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const r = button.getBoundingClientRect();
    boxes.push([r.x, r.y, r.width, r.height].join(','));
  }
  return boxes;
}"""


def test_a_resting_pointer_leaves_every_card_button_still(browser):
    page = browser.new_page(viewport={"width": 360, "height": 740})
    styles = "".join(f"<style>{path.read_text()}</style>" for path in sorted(CSS.glob("*.css")))
    page.set_content(styles + BUTTONS)
    buttons = page.locator("button")
    assert buttons.count() == 4
    for index in range(buttons.count()):
        box = buttons.nth(index).bounding_box()
        for y in (box["y"] + box["height"] - 1, box["y"] + 1, box["y"] + box["height"] / 2):
            page.mouse.move(box["x"] + box["width"] / 2, y)
            boxes = page.evaluate(FRAMES, index)
            assert len(set(boxes)) == 1, f"button {index} moves under the pointer: {boxes}"
        buttons.nth(index).click(timeout=2000)  # Playwright's own stability check
    page.close()
