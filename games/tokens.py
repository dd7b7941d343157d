"""Opaque per-table tokens for what a board page marks or posts back (issues 24 and 27).

Card ids spell readings (``"shi"``, ``"botan-chaff-1"``: docs/rules/) and action keys hold
card ids (``{"card":"shi","target":1,"type":"ask"}``), so a page carrying them would
answer an open kana question to anyone reading its HTML. Pages carry tokens instead: an
HMAC of the table and the id or key under the site's secret, the same for the whole table
(the board's script finds the focused card again after a swap by its ``data-card``). The
move service maps a posted token back by computing the tokens of the seat's legal actions;
a posted action key is still accepted (tests and API clients that know the rules)."""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.utils.encoding import force_bytes


@lru_cache(maxsize=8)
def _keyed(kind: str, secret: str) -> Any:
    """Django's ``salted_hmac(f"kanagame.games.{kind}", ...)`` before its message: the key
    derived once (``sha1(salt + secret)``) instead of once per token. A board draws ~80
    tokens, and deriving the key and setting up the HMAC cost more than hashing the value."""
    key = hashlib.sha1(f"kanagame.games.{kind}".encode() + force_bytes(secret)).digest()
    return hmac.new(key, digestmod=hashlib.sha1)


# Tokens a worker keeps: a table's cards and legal actions repeat from one request to the next
# (and within a move: the posted token is matched, then the new board drawn); a board draws
# ~80. Each entry is ~300 bytes (a 300-table class: ~25,000 entries, ~8 MB at most).
TOKENS_KEPT = 1 << 15


@lru_cache(maxsize=TOKENS_KEPT)
def _token_of(kind: str, secret: str, table_id: int, value: str) -> str:
    mac = _keyed(kind, secret).copy()
    mac.update(f"{table_id}:{value}".encode())
    return f"{kind}{mac.hexdigest()[:14]}"


def _token(kind: str, table_id: int, value: str) -> str:
    return _token_of(kind, settings.SECRET_KEY, table_id, value)


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
    return _Opaque(table_id, keys).walk(data)


# what ``_Opaque.walk`` returns as it is (exact types: a subclass goes through ``walk``)
_LEAVES = frozenset({str, int, bool, float, type(None)})


class _Opaque:
    """One walk of ``opaque``. A class, not a closure: a closure that calls itself is a
    reference cycle holding every dict it made, which only the cyclic garbage collector
    frees (hundreds of objects per board)."""

    __slots__ = ("keys", "made", "secret", "table_id")

    def __init__(self, table_id: int, keys: set[str]) -> None:
        self.table_id, self.keys = table_id, keys
        self.secret = settings.SECRET_KEY  # ``_token``'s, read once a walk (~80 tokens)
        self.made: dict[int, dict] = {}

    def walk(self, value: Any) -> Any:
        if isinstance(value, dict):
            done = self.made.get(id(value))
            if done is not None:
                return done
            # a copy, then what changes: most values are plain (no call, no test for them)
            out = self.made[id(value)] = dict(value)
            for name, item in value.items():
                if item.__class__ not in _LEAVES:
                    out[name] = self.walk(item)
            key = value.get("key")
            if isinstance(key, str) and key in self.keys:
                out["key"] = _token_of("a", self.secret, self.table_id, key)  # action_token
            if "mode" in value:  # a card
                card = value.get("id")
                if isinstance(card, str) and card:
                    out["id"] = _token_of("c", self.secret, self.table_id, card)  # card_token
            return out
        if isinstance(value, list):
            return [item if item.__class__ in _LEAVES else self.walk(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self.walk(item) for item in value)
        return value
