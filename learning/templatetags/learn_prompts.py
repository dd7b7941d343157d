"""``{% prompt_form first %}``: the form of the first open kana question beside a board.

Drawn on every board a learner is shown while a question is open (most moves and polls of a
class: docs/bench.md, "Session 9"), so a tag rather than ~60 template nodes: it writes, byte
for byte, what the form of ``learn/partials/table_prompts.html`` wrote (the template it
replaced is kept verbatim in tests/learning/test_prompt_form_tag.py, which compares the two).
The same strings, translated the same way: ``{% translate %}`` escaped, ``{% blocktranslate %}``
with its values escaped.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext, pgettext

from games.escaping import conditional_escape

register = template.Library()

_TYPED = (
    '\n          <label for="prompt-{id}-answer">{label}</label>\n          <input id="prompt-{id}'
    '-answer" name="answer" hx-preserve="true" autocomplete="off" autocapitalize="none" '
    'spellcheck="false" maxlength="8" required>\n          <button type="submit" '
    'class="primary">{button}</button>\n        '
)


def _t(value: Any) -> str:
    """``{{ value }}``: the value as text, escaped unless safe."""
    return conditional_escape(value if isinstance(value, str) else str(value))


def _csrf(context: template.Context) -> str:
    """What ``{% csrf_token %}`` writes."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(token)}">'


def _legend(first: Any) -> str:
    if first.kind == "card":
        said = _t(first.ask)
    elif first.kind == "glyph":
        said = gettext("Which kana is “%(name)s”?") % {"name": _t(first.question)}
    else:
        said = conditional_escape(gettext("How do you read this kana?"))
    return f"\n            {said}\n          "


def _clue(first: Any) -> str:
    if first.kind == "card":
        return f'<p class="prompt-clue" lang="ja">{_t(first.question)}</p>\n        '
    if first.kind != "glyph":
        return f'<p class="prompt-glyph" lang="ja">{_t(first.question)}</p>'
    return ""


def _answer(first: Any) -> str:
    if first.kind == "typed":
        return _TYPED.format(
            id=_t(first.id),
            label=conditional_escape(gettext("Reading in romaji")),
            button=conditional_escape(pgettext("button", "Answer")),
        )
    if first.kind in ("glyph", "card"):
        attrs = ' lang="ja" class="prompt-choice glyph-choice"'
    else:
        attrs = ' class="prompt-choice"'
    buttons = "".join(
        [
            f'\n              <button type="submit" name="answer" value="{_t(choice.value)}"'
            f"{attrs}>{_t(choice.label)}</button>\n            "
            for choice in first.choices
        ]
    )
    return (
        f'\n          <div class="prompt-choices">\n            {buttons}\n          </div>'
        "\n        "
    )


@lru_cache(maxsize=4096)
def _answer_url(prefix: str, urlconf: str, prompt_id: int) -> str:  # noqa: ARG001 - memo keys
    """``reverse("learn:prompt_answer", prompt_id)`` kept per worker: a question stays on its
    board for every poll and move until it is answered, and a reversal costs more than the
    rest of the form. A pure function of the script prefix, the URLconf and the id."""
    return reverse("learn:prompt_answer", args=[prompt_id], urlconf=urlconf)


@register.simple_tag(takes_context=True)
def prompt_form(context: template.Context, first: Any) -> SafeString:
    """The answer form of ``first`` (a ``PromptView``), posted with HTMX to its answer URL."""
    url = _t(_answer_url(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, first.id))
    request = context.get("request")
    after = context.get("prompts_next") or (request.get_full_path() if request else "")
    more = len(context.get("prompts") or ()) - 1
    waiting = ""
    if more > 0:
        said = ngettext("%(n)s more question waiting.", "%(n)s more questions waiting.", more)
        waiting = f'<p class="prompt-more">{said % {"n": more}}</p>'
    note = conditional_escape(
        gettext("Questions never hold up the game; unanswered ones expire after two minutes.")
    )
    return SafeString(
        f'<form class="prompt" method="post" action="{url}"\n      hx-post="{url}" '
        f'hx-target="#table-prompts" hx-swap="outerHTML">\n      {_csrf(context)}\n      '
        f'<input type="hidden" name="next" value="{_t(after)}">\n      <input type="hidden" '
        f'name="table_id" value="{_t(first.table_id)}">\n      <fieldset>\n        <legend '
        f"data-announce>\n          {_legend(first)}\n        </legend>\n        {_clue(first)}"
        f"\n        {_answer(first)}\n      </fieldset>\n      {waiting}\n      "
        f'<p class="prompt-note">{note}</p>\n    </form>'
    )
