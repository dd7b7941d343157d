"""Ids and numbers read from requests: one rule for every view (issue 24).

``str.isdigit()`` is true for "²" and "٣", which ``int()`` then refuses or reads as 3, and a
30-digit id overflows SQLite's 64-bit integers in a hand-written query: each was a 500. An id
or number from a request is ASCII digits only (``[0-9]``, not ``\\d``, which matches every
script's digits), at most 18 of them (every value a 64-bit column holds), or it is refused
with ``BadParam`` and the view answers 400.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]{1,18}")


class BadParam(ValueError):
    """A request parameter that should be an id or a whole number is not one (HTTP 400)."""


def id_param(raw: object) -> int:
    """The whole number ``raw`` spells in ASCII digits; ``BadParam`` otherwise."""
    if not isinstance(raw, str) or not _DIGITS.fullmatch(raw):
        raise BadParam(f"not an id: {str(raw)[:40]!r}")
    return int(raw)


def optional_id_param(raw: object) -> int | None:
    """``None`` when the parameter is absent or empty, else ``id_param(raw)``."""
    return None if raw is None or raw == "" else id_param(raw)
