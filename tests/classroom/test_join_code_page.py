"""The join-code page a teacher projects: the full address, a QR code of the join link, and the
class settings form with each checkbox beside its label."""

import base64
import re
from urllib.parse import unquote

import segno
from django.conf import settings
from django.urls import reverse


def test_the_join_code_page_shows_the_full_address_and_a_qr_code_of_the_link(as_alice, alice_class):
    page = as_alice.get(reverse("teach_class_settings", args=[alice_class.pk])).content.decode()
    assert "http://testserver/join/" in page
    link = f"http://testserver/join/?code={alice_class.join_code}"
    assert link in page  # the link printed beside the code, for a projector or a chat
    img = re.search(r'<img[^>]*class="join-qr"[^>]*>', page)
    assert img, "no QR code image"
    alt = re.search(r'alt="([^"]+)"', img.group(0)).group(1)
    assert alice_class.join_code_display in alt  # the alt text says what a camera would read
    src = re.search(r'src="data:image/svg\+xml[^"]*"', img.group(0)).group(0)
    svg = src.split(",", 1)[1].rstrip('"')
    svg = base64.b64decode(svg).decode() if ";base64" in src else unquote(svg)
    expected = segno.make(link, error="m").svg_inline(scale=1, border=2)
    # the same QR symbol (the path drawing the modules) as segno makes for the link
    drawn = re.compile(r""" d=["']([^"']+)["']""")
    assert drawn.search(svg).group(1) == drawn.search(expected).group(1)


def test_the_open_checkbox_sits_beside_its_label(as_alice, alice_class):
    page = as_alice.get(reverse("teach_class_settings", args=[alice_class.pk])).content.decode()
    checkbox = r'<input type="checkbox" name="is_open"[^>]*id="id_is_open"[^>]*>'
    assert re.search(r'<div class="field-check">' + checkbox + r'\s*<label for="id_is_open"', page)
    css = (settings.BASE_DIR / "static" / "css" / "kanagame.css").read_text()
    assert ".form > div.field-check { flex-direction: row;" in css  # not a column: side by side
