"""Game engines: pure Python rules behind the contract of ARCHITECTURE §2.

    from games.engines import get_engine, IllegalAction, ENGINES
    eng = get_engine(name)       # name: a key of ENGINES

``ENGINES`` maps each engine name to the module defining it; a module exports its engine
object as ``ENGINE``. Adding an engine is one line here once its module exists.
"""

from __future__ import annotations

from importlib import import_module

from games.engines.base import Engine, IllegalAction, action_key

ENGINES: dict[str, str] = {
    "kazoku-families": "games.engines.kazoku.families",
    "kazoku-words": "games.engines.kazoku.words",
    "bozu": "games.engines.bozu",
    "yokai": "games.engines.yokai",
    "koikoi": "games.engines.koikoi",
}


def get_engine(name: str) -> Engine:
    """The engine registered as ``name``; an unknown name raises ``KeyError``."""
    try:
        module_path = ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise KeyError(f"unknown engine {name!r} (known engines: {known})") from None
    return import_module(module_path).ENGINE


__all__ = ["ENGINES", "Engine", "IllegalAction", "action_key", "get_engine"]
