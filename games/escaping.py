"""``conditional_escape`` for the board's own tags and sentences (~120 values a render).

Django's ``conditional_escape`` hands every plain value to ``escape``, which ``keep_lazy``
wraps: each call first looks through its arguments for a lazy string, then calls the
function it wraps. This one gives the same result for every value (a lazy string is turned
into text first, as Django does, so it follows the active language), without that wrapper.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.utils.functional import Promise
from django.utils.safestring import SafeString


def conditional_escape(text: Any) -> str:
    """``django.utils.html.conditional_escape(text)``: ``text`` if it is marked safe (it has
    ``__html__``), else its HTML-escaped text (quotes too), marked safe."""
    if isinstance(text, Promise):
        text = str(text)
    html = getattr(text, "__html__", None)
    if html is not None:
        return html()
    return SafeString(escape(str(text)))
