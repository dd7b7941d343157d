"""What a person reads about a game, in the interface language.

The engines declare it (the Display contract, ARCHITECTURE §2: ``title``, ``describe``,
``option_labels``, ``ranked``) in English marked with ``gettext_noop``; this module passes
Django's ``gettext`` to them, so every page that names a game, a variant or an option reads it
from here (or from the ``games_display`` template tags) and never from a game's name:

    game_title(name)              -> the engine's title, translated
    game_describe(name, options)  -> "6 rounds · Katakana" (its variant and chosen options)
    game_label(name, options)     -> "<title> · 6 rounds · Katakana"

``game_describe`` adds the table options a person chose (``games.forms.TableCreateForm``'s
fields: script, romaji, questions, timer) to the engine's own words: the script always (where
the game uses one), the others when they differ from their default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games.engines import ENGINES, get_engine
from games.engines.base import BOOL_WORDS, DESCRIBE_SEPARATOR, OPTION_VALUE, Engine
from games.forms import TABLE_FIELDS, TableCreateForm
from games.services.tables import TABLE_OPTION_DEFAULTS


def _engine(engine: str) -> Engine | None:
    return get_engine(engine) if engine in ENGINES else None


def game_title(engine: str) -> str:
    """The game's name (the engine's ``title``), translated; a game no longer registered is
    "Unknown game", never its id."""
    eng = _engine(engine)
    if eng is None or not eng.title:
        return gettext("Unknown game")
    return gettext(eng.title)


def game_blurb(engine: str) -> str:
    """The engine's one-sentence ``blurb``, translated ("" when it has none)."""
    eng = _engine(engine)
    return gettext(eng.blurb) if eng is not None and eng.blurb else ""


def game_option_labels(engine: str) -> dict[str, dict]:
    """``eng.option_labels()`` translated: option -> {"label", "values": {value: words}}."""
    eng = _engine(engine)
    return eng.option_labels(translate=gettext) if eng is not None else {}


def game_describe(engine: str, options: Mapping[str, Any] | None) -> str:
    """The variant and options of a table or an assignment in words (see the docstring)."""
    eng = _engine(engine)
    if eng is None:
        return ""
    options = options or {}
    parts = [eng.describe(options, translate=gettext)]
    parts += _table_options_said(eng, options)
    return DESCRIBE_SEPARATOR.join(part for part in parts if part)


def game_label(engine: str, options: Mapping[str, Any] | None = None) -> str:
    """The game's name followed by its variant and options: "<title> · 6 rounds"."""
    described = game_describe(engine, options)
    title = game_title(engine)
    return f"{title}{DESCRIBE_SEPARATOR}{described}" if described else title


def _table_options_said(eng: Engine, options: Mapping[str, Any]) -> list[str]:
    engine_options = {option.name for option in eng.OPTIONS}
    unused = set(eng.UNUSED_TABLE_OPTIONS)
    if not eng.asks_about_cards:
        unused.add("card_prompts")
    said = []
    for name in TABLE_FIELDS:
        if name in engine_options or name in unused or name not in options:
            continue  # the engine said it, the game does not use it, or nobody chose it
        value = options[name]
        if name != "script" and value == TABLE_OPTION_DEFAULTS.get(name):
            continue
        words = _table_value_said(name, value)
        if words:
            said.append(words)
    return said


def _table_value_said(name: str, value: Any) -> str:
    field = TableCreateForm.base_fields[name]
    if name == "script":
        return str(dict(field.choices).get(value, ""))
    if isinstance(value, bool):
        words = gettext(BOOL_WORDS[value])
    else:
        words = str(dict(field.choices).get(value, ""))
    if not words:
        return ""
    return gettext(OPTION_VALUE) % {"option": str(field.label), "value": words}


@dataclass(frozen=True)
class GameCard:
    """One game as a list of games shows it (the lobby, the home page)."""

    engine: str
    name: str
    blurb: str


def games_offered() -> list[GameCard]:
    """The registered games with a ``title``, in registry order, named and pitched."""
    return [
        GameCard(engine=name, name=game_title(name), blurb=game_blurb(name))
        for name in ENGINES
        if get_engine(name).title
    ]
