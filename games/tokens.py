"""Opaque per-table tokens for what a board page marks or posts back (issues 24 and 27).

Card ids spell readings (``"shi"``, ``"botan-chaff-1"``: docs/rules/) and action keys hold
card ids (``{"card":"shi","target":1,"type":"ask"}``), so a page carrying them would
answer an open kana question to anyone reading its HTML. Pages carry tokens instead: an
HMAC of the table and the id or key under the site's secret, the same for the whole table
(the board's script finds the focused card again after a swap by its ``data-card``). The
move service maps a posted token back by computing the tokens of the seat's legal actions;
a posted action key is still accepted (tests and API clients that know the rules)."""

from __future__ import annotations

from typing import Any

from django.utils.crypto import salted_hmac


def _token(kind: str, table_id: int, value: str) -> str:
    digest = salted_hmac(f"kanagame.games.{kind}", f"{table_id}:{value}").hexdigest()
    return f"{kind}{digest[:14]}"


def action_token(table_id: int, key: str) -> str:
    """What a page posts for the legal action whose ``action_key`` is ``key``."""
    return _token("a", table_id, key)


def card_token(table_id: int, card_id: str) -> str:
    """What a page marks a card with (``data-card``) instead of its id."""
    return _token("c", table_id, card_id)


def opaque(data: Any, *, table_id: int, keys: set[str]) -> Any:
    """``data`` (a presenter's board data) with every action key among ``keys`` replaced by
    its token, and every card's ``id`` (a dict with a ``mode``: a card as the templates draw
    it) by its card token. New dicts and lists: presenters' own objects are left as they are;
    a dict met twice (a card drawn in two places) becomes one new dict."""
    made: dict[int, dict] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            done = made.get(id(value))
            if done is not None:
                return done
            out = made[id(value)] = {}
            card = "mode" in value
            for name, item in value.items():
                if name == "key" and isinstance(item, str) and item in keys:
                    out[name] = action_token(table_id, item)
                elif name == "id" and card and isinstance(item, str) and item:
                    out[name] = card_token(table_id, item)
                else:
                    out[name] = walk(item)
            return out
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, tuple):
            return tuple(walk(item) for item in value)
        return value

    return walk(data)
