"""Playing in a journey: answer the open kana questions, make a few moves with the mouse, then
let the normal CPU finish the player's game (the journey only needs a result)."""

from __future__ import annotations

import re

MOVE = "#board button[name=action]:not([disabled])"


def answer_questions(journey, limit: int = 3) -> int:
    """Answer the open kana questions beside the board (rightly, as the player would)."""
    from learning.models import Prompt

    page, answered = journey.page, 0
    while answered < limit:
        form = page.locator("#table-prompts form.prompt")
        if not form.count():
            break
        journey.question_shown()  # as it is shown, before a click scrolls
        prompt_id = int(re.search(r"/prompts/(\d+)/", form.get_attribute("action")).group(1))
        prompt = Prompt.objects.get(pk=prompt_id)
        typed = form.locator("input[name=answer]")
        if typed.count():
            from learning import kana_table

            typed.fill(kana_table.info(prompt.kana_id, prompt.script).romaji)
            form.locator("button[type=submit]").click()
        else:
            # a button posts its position among the choices (never a kana id: a reading)
            position = prompt.choices.index(prompt.kana_id)
            right = form.locator(f"button[name=answer][value='{position}']")
            (right if right.count() else form.locator("button[name=answer]").first).click()
        page.wait_for_function(
            "(id) => !document.querySelector(`#table-prompts form[action*='/prompts/${id}/']`)",
            arg=prompt_id,
        )
        answered += 1
    return answered


def play_moves(journey, moves: int = 2) -> int:
    """Click a legal action (after choosing the first option where a move needs one)."""
    page, played = journey.page, 0
    for _ in range(moves):
        radio = page.locator("#board input[type=radio]:not(:checked)")
        if radio.count() and not page.locator(MOVE).count():
            radio.first.check()
        button = page.locator(MOVE)
        if not button.count():
            break
        before = page.locator("#board").get_attribute("data-version")
        button.first.click()
        page.wait_for_function(
            "(v) => { const b = document.querySelector('#board');"
            " return b && (b.dataset.version !== v || b.querySelector('.ranking, .yk-result')); }",
            arg=before,
        )
        played += 1
    return played


def finish_for(table_code: str, user) -> None:
    """The normal CPU plays the rest of ``user``'s game (games.demo's helper)."""
    from games.demo import _play_human_moves
    from games.models import Table

    table = Table.objects.get(code=table_code)
    _play_human_moves(table, user, None)
    table.refresh_from_db()
    assert table.status == "finished", f"{table.engine}: not finished"


def table_code(page) -> str:
    return re.search(r"/play/t/([^/]+)/", page.url).group(1)
