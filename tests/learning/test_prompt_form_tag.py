"""``{% prompt_form first %}`` writes, byte for byte, what the form it replaced in
``learn/partials/table_prompts.html`` wrote (kept below verbatim), for every kind of question,
one to three open, in English, French and Japanese, with and without a CSRF token and a
``prompts_next``, and with text to escape."""

import itertools
import re
from datetime import UTC, datetime

import pytest
from django.middleware.csrf import get_token
from django.template import Context, Template
from django.template.context import RequestContext
from django.test import RequestFactory
from django.utils import translation

from learning.services.play import Choice, PromptView

FORM = (
    "{% load i18n %}{% with first=prompts|first %}"
    + """{% url 'learn:prompt_answer' first.id as answer_url %}<form class="prompt" method="post" action="{{ answer_url }}"
      hx-post="{{ answer_url }}" hx-target="#table-prompts" hx-swap="outerHTML">
      {% csrf_token %}
      <input type="hidden" name="next" value="{{ prompts_next|default:request.get_full_path }}">
      <input type="hidden" name="table_id" value="{{ first.table_id }}">
      <fieldset>
        <legend data-announce>
          {% if first.kind == "card" %}
            {{ first.ask }}
          {% elif first.kind == "glyph" %}
            {% blocktranslate with name=first.question %}Which kana is “{{ name }}”?{% endblocktranslate %}
          {% else %}
            {% translate "How do you read this kana?" %}
          {% endif %}
        </legend>
        {% if first.kind == "card" %}<p class="prompt-clue" lang="ja">{{ first.question }}</p>
        {% elif first.kind != "glyph" %}<p class="prompt-glyph" lang="ja">{{ first.question }}</p>{% endif %}
        {% if first.kind == "typed" %}
          <label for="prompt-{{ first.id }}-answer">{% translate "Reading in romaji" %}</label>
          <input id="prompt-{{ first.id }}-answer" name="answer" hx-preserve="true" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="8" required>
          <button type="submit" class="primary">{% translate "Answer" context "button" %}</button>
        {% else %}
          <div class="prompt-choices">
            {% for choice in first.choices %}
              <button type="submit" name="answer" value="{{ choice.value }}"{% if first.kind == "glyph" or first.kind == "card" %} lang="ja" class="prompt-choice glyph-choice"{% else %} class="prompt-choice"{% endif %}>{{ choice.label }}</button>
            {% endfor %}
          </div>
        {% endif %}
      </fieldset>
      {% with more=prompts|length|add:"-1" %}{% if more > 0 %}<p class="prompt-more">{% blocktranslate count n=more %}{{ n }} more question waiting.{% plural %}{{ n }} more questions waiting.{% endblocktranslate %}</p>{% endif %}{% endwith %}
      <p class="prompt-note">{% translate "Questions never hold up the game; unanswered ones expire after two minutes." %}</p>
    </form>"""  # noqa: E501
    + "{% endwith %}"
)
TAG = "{% load learn_prompts %}{% with first=prompts|first %}{% prompt_form first %}{% endwith %}"
AT = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)


def _prompt(kind: str, n: int) -> PromptView:
    choices = (
        ()
        if kind in ("typed", "write")
        else tuple(Choice(str(i), label) for i, label in enumerate(["か", "<b>&", "ki", "シ"]))
    )
    return PromptView(
        id=40 + n, kind=kind, question="<i>shi</i> & “x”" if n == 0 else "か", script="hiragana",
        choices=choices, expires_at=AT, table_id=7 if n else None,
        ask="Which kana begins “<this>”?" if kind == "card" else "",
    )  # fmt: skip


def _render(source: str, context: dict, request, processors: bool) -> str:
    """With the context processors (the CSRF token among them), or only the request (as the
    template needs: its ``default:request.get_full_path`` fails without one)."""
    if not processors:
        return Template(source).render(Context({**context, "request": request}))
    return Template(source).render(RequestContext(request, context))


@pytest.mark.parametrize("language", ["en", "fr", "ja"])
def test_prompt_form_writes_what_the_template_wrote(language):
    request = RequestFactory().get("/play/t/ABCDEF/?v=3&x=<y>")
    get_token(request)
    kinds = ["reading", "glyph", "card", "typed", "write"]
    with translation.override(language):
        for kind, count, processors, after in itertools.product(
            kinds, [1, 2, 3], [True, False], ["", "/play/t/AB&CD/"]
        ):
            prompts = [_prompt(kind, n) for n in range(count)]
            context = {"prompts": prompts}
            if after:
                context["prompts_next"] = after
            old, new = (_render(source, context, request, processors) for source in (FORM, TAG))
            # the CSRF token is masked afresh each time it is written
            old, new = (re.sub(r'(middlewaretoken" value=)"[^"]+"', r"\1T", h) for h in (old, new))
            assert old == new, (kind, count, processors, after)
            assert "<form" in new and ("csrfmiddlewaretoken" in new) == processors
