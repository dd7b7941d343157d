"""What a page shows of a game, read from the engine's Display contract (``games.display``):

{% load games_display %}
{{ table.engine|game_title }}                   the game's name, translated
{% game_describe engine options %}              its variant and chosen options in words
{% game_label engine options %}                 both: "<title> · 6 rounds"
"""

from collections.abc import Mapping
from typing import Any

from django import template

from games import display

register = template.Library()


@register.filter
def game_title(engine: str) -> str:
    return display.game_title(engine)


@register.simple_tag
def game_describe(engine: str, options: Mapping[str, Any] | None = None) -> str:
    return display.game_describe(engine, options)


@register.simple_tag
def game_label(engine: str, options: Mapping[str, Any] | None = None) -> str:
    return display.game_label(engine, options)
