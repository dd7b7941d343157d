"""The Yokai board: the moving grid as buttons, my peeks, the clues, the team's result.

Built from the viewer's view only (``eng.view(state, seat)``): a face-down yokai is drawn face
down unless this seat peeked at it, so another seat's peeks never reach the page.

The grid is drawn over the yokai's bounding box plus one empty ring (where a yokai may move).
Without JavaScript a move is two choices in one form: a radio button per movable yokai, then a
submit button in each empty place it may reach (shown for the checked yokai by a CSS ``:has``
rule). Placing a clue works the same way (a radio per clue beside the grid, a button on each
yokai). Every button carries a legal action's key; nothing is built from request fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.boards.common import (
    BoardInput,
    BoardPresenter,
    Player,
    Said,
    card_html,
    sentence_html,
)
from games.engines import action_key
from games.engines.yokai.bots import frame_name, frame_of
from games.engines.yokai.data import (
    FAMILY,
    FAMILY_IDS,
    OBJECTIVE,
    RATING_LABELS,
    families_on,
)

Pos = tuple[int, int]


def yokai_card(card_id: str, script: str, romaji: str) -> dict[str, Any]:
    """A yokai, clue or affinity card as ``{% kana_card %}`` draws it: the family names."""
    families = families_on(card_id)
    glyph = "・".join(getattr(FAMILY[f], script) for f in families)
    latin = " · ".join(FAMILY[f].romaji for f in families)
    return {
        "id": "",
        "glyph": glyph,
        "romaji": latin,
        "mode": romaji,
        "families": list(families),
        "label": glyph if romaji == "never" else f"{glyph} ({latin})",
    }


def _card(say: Said, card_id: str) -> SafeString:
    """A yokai or clue card inline in a sentence, in the table's script and romaji option."""
    script = (say.view.get("options") or {}).get("script", "hiragana")
    return card_html(yokai_card(card_id, script, say.romaji))


def _on_deal(event: Mapping[str, Any], say: Said) -> str | None:
    return _("The sixteen yokai lie face down; %(n)s clue cards wait in the pile.") % {
        "n": event["clues"]
    }


def _on_peek(event: Mapping[str, Any], say: Said) -> str | None:
    if "card" in event:  # private: only the peeking seat's log has it
        return sentence_html(
            _("You peeked at a yokai: %(card)s."), {"card": _card(say, event["card"])}
        )
    if say.is_me(event["seat"]):
        return _("You peeked at a yokai.")
    return sentence_html(_("%(name)s peeked at a yokai."), {"name": say.name(event["seat"])})


def _on_move(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("You moved a yokai.")
    return sentence_html(_("%(name)s moved a yokai."), {"name": say.name(event["seat"])})


def _on_no_move(event: Mapping[str, Any], say: Said) -> str | None:
    return _("No yokai could move.")


def _on_reveal(event: Mapping[str, Any], say: Said) -> str | None:
    values = {"name": say.name(event["seat"]), "clue": _card(say, event["clue"])}
    if say.is_me(event["seat"]):
        return sentence_html(_("You revealed the clue %(clue)s."), values)
    return sentence_html(_("%(name)s revealed the clue %(clue)s."), values)


def _on_draw_clue(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("You drew a clue face down.")
    return sentence_html(_("%(name)s drew a clue face down."), {"name": say.name(event["seat"])})


def _on_place(event: Mapping[str, Any], say: Said) -> str | None:
    name = say.name(event["seat"])
    if event.get("clue") is None:
        if say.is_me(event["seat"]):
            return _("You locked a yokai with a face-down clue.")
        return sentence_html(_("%(name)s locked a yokai with a face-down clue."), {"name": name})
    values = {"name": name, "clue": _card(say, event["clue"])}
    if say.is_me(event["seat"]):
        return sentence_html(_("You placed the clue %(clue)s on a yokai."), values)
    return sentence_html(_("%(name)s placed the clue %(clue)s on a yokai."), values)


def _on_declare(event: Mapping[str, Any], say: Said) -> str | None:
    if say.is_me(event["seat"]):
        return _("You declared the yokai appeased.")
    return sentence_html(
        _("%(name)s declared the yokai appeased."), {"name": say.name(event["seat"])}
    )


def _on_game_over(event: Mapping[str, Any], say: Said) -> str | None:
    if event["won"]:
        return _("The yokai are appeased: the team wins with %(points)s points.") % {
            "points": event["points"]
        }
    return _("The yokai are not appeased: the team loses.")


SENTENCES = {
    "deal": _on_deal,
    "peek": _on_peek,
    "move": _on_move,
    "no_move": _on_no_move,
    "reveal": _on_reveal,
    "draw_clue": _on_draw_clue,
    "place": _on_place,
    "declare": _on_declare,
    "game_over": _on_game_over,
}


class YokaiBoard(BoardPresenter):
    template = "games/boards/yokai.html"
    LOG_LINES = 16

    def board_data(self, board: BoardInput) -> dict[str, Any]:
        view, romaji = board.view, board.romaji
        script = view["options"].get("script", "hiragana")

        def card(card_id: str) -> dict[str, Any]:
            return yokai_card(card_id, script, romaji)

        actions = _actions_by_kind(board.legal)
        grid = _grid(view, actions, card)
        aside = [
            {
                "slot": slot,
                "card": card(clue) if clue else None,
                "id": f"yk-slot-{slot}",
                "placeable": slot in grid["slots"],
            }
            for slot, clue in enumerate(view["aside"])
        ]
        affinity = view.get("affinity")
        objective = view.get("objective")
        outcome = view.get("outcome") or {}
        return {
            "turn": view.get("turn"),
            "level": view["level"],
            "step": view["step"],
            "step_label": _step_label(view) if any(actions.values()) else "",
            "my_turn": any(actions.values()),
            "rows": grid["rows"],
            "sources": grid["sources"],
            "slots": sorted(grid["slots"]),
            "aside": aside,
            "reveal": actions["reveal"][0] if actions["reveal"] else None,
            "declare": actions["declare"][0] if actions["declare"] else None,
            "clues_left": view["clues_left"],
            "placed": view["placed"],
            "turn_no": view["turn_no"],
            "affinity": card(affinity) if affinity else None,
            "affinity_hidden": view.get("affinity_hidden"),
            "objective": _objective(objective) if objective else None,
            "plan": _plan(view, board.players, script, romaji),
            "memory_aids": view.get("memory_aids", False),
            "seats": board.seats(lambda player: {}),
            "over": view["over"],
            "result": _result(outcome) if view["over"] else None,
        }

    def board_ranking(self, board: BoardInput) -> list[dict]:
        return []  # one team: the result section says whether it won

    # -- the log: ``SENTENCES`` above, one small function per event type --

    SENTENCES = SENTENCES

    def unknown_sentence(self, event: Mapping[str, Any]) -> str | None:
        return None  # "turn" and the like say nothing


# --- the grid -------------------------------------------------------------------------------------


def _actions_by_kind(legal: Sequence[dict]) -> dict[str, list[dict]]:
    by_kind: dict[str, list[dict]] = {k: [] for k in ("peek", "move", "reveal", "place", "declare")}
    for action in legal:
        by_kind[action["type"]].append({**action, "key": action_key(action)})
    return by_kind


def _step_label(view: Mapping[str, Any]) -> str:
    if view["step"] == "peek":
        return _("Step 1: peek at %(n)s more yokai (only you will see them).") % {
            "n": view["peeks_left"]
        }
    if view["step"] == "move":
        return _("Step 2: choose a yokai, then an empty place next to the others.")
    return _("Step 3: reveal a new clue, or place a revealed clue on a yokai.")


def _grid(
    view: Mapping[str, Any], actions: dict[str, list[dict]], card: Callable[[str], dict]
) -> dict[str, Any]:
    cells = {(c["row"], c["col"]): c for c in view["cells"]}
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    top, bottom, left, right = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    peeks = {(a["row"], a["col"]): a for a in actions["peek"]}
    sources: dict[Pos, str] = {}
    targets: dict[Pos, list[dict]] = {}
    for action in actions["move"]:
        source = (action["row"], action["col"])
        source_id = sources.setdefault(source, f"yk-src-{len(sources)}")
        targets.setdefault((action["to_row"], action["to_col"]), []).append(
            {"key": action["key"], "for": source_id}
        )
    places: dict[Pos, list[dict]] = {}
    slots = set()
    for action in actions["place"]:
        slots.add(action["slot"])
        places.setdefault((action["row"], action["col"]), []).append(
            {"key": action["key"], "for": f"yk-slot-{action['slot']}"}
        )
    grid_rows = []
    for r in range(top, bottom + 1):
        line = []
        for c in range(left, right + 1):
            where = _("row %(row)s, column %(col)s") % {"row": r - top + 1, "col": c - left + 1}
            if (r, c) in cells:
                line.append(_yokai_cell(cells[(r, c)], where, card, peeks, sources, places))
            else:
                line.append({"kind": "empty", "where": where, "targets": targets.get((r, c), [])})
        grid_rows.append(line)
    return {"rows": grid_rows, "sources": list(sources.values()), "slots": slots}


def _yokai_cell(
    cell: Mapping[str, Any],
    where: str,
    card: Callable[[str], dict],
    peeks: Mapping[Pos, dict],
    sources: Mapping[Pos, str],
    places: Mapping[Pos, list[dict]],
) -> dict[str, Any]:
    pos = (cell["row"], cell["col"])
    face = card(cell["card"]) if cell["card"] else None
    clue = card(cell["clue"]) if cell["clue"] else None
    if face:
        what = _("%(family)s, seen on turn %(turn)s") % {
            "family": face["label"],
            "turn": cell["seen"],
        }
        if cell["seen"] is None:  # the end: every yokai turned over
            what = face["label"]
    else:
        what = _("a face-down yokai")
    if cell["locked"]:
        what += " — " + (
            _("locked by the clue %(clue)s") % {"clue": clue["label"]}
            if clue
            else _("locked by a face-down clue")
        )
    return {
        "kind": "yokai",
        "where": where,
        "face": face,
        "family": face["families"][0] if face else "",
        "seen": cell["seen"],
        "now": cell["now"],
        "locked": cell["locked"],
        "clue": clue,
        "label": f"{where}: {what}",
        "peek": peeks.get(pos),
        "source": sources.get(pos),
        "places": places.get(pos, []),
    }


PLAN_WHERE = {
    "square": gettext_lazy("Laid on the 4 × 4 grid as it was dealt."),
    "affinity": gettext_lazy("Laid on the 4 × 4 grid as it was dealt."),
    "scroll": gettext_lazy(
        "Laid on the two middle rows of the grid as it was dealt, stretched two places to the "
        "left and two to the right."
    ),
    "lantern": gettext_lazy(
        "Laid on the 4 × 4 grid as it was dealt and one row below it: the two corners of the "
        "top row go to the new row."
    ),
}


def _plan(
    view: Mapping[str, Any], players: Sequence[Player], script: str, romaji: str
) -> dict[str, Any] | None:
    """The frame the CPU teammates fill (``bots.FRAMES``), shown to the humans at the table
    so that they can read the CPU teammates' moves and play along; None when no CPU teammate
    plays by one."""
    if view["over"] or not any(p.kind == "bot" and p.level in ("normal", "hard") for p in players):
        return None
    name = frame_name(view["level"], view["players"], view.get("objective"))
    if name is None:
        return None
    frame = frame_of(name)
    top, left = min(r for r, _ in frame), min(c for _, c in frame)
    height = max(r for r, _ in frame) - top + 1
    width = max(c for _, c in frame) - left + 1
    names = {f: getattr(FAMILY[f], script) for f in FAMILY_IDS}
    rows = [
        [
            {"glyph": names[frame[(top + r, left + c)]][0], "family": frame[(top + r, left + c)]}
            if (top + r, left + c) in frame
            else None
            for c in range(width)
        ]
        for r in range(height)
    ]
    legend = [
        {
            "glyph": names[f][0],
            "name": names[f],
            "romaji": FAMILY[f].romaji if romaji != "never" else "",
            "family": f,
        }
        for f in FAMILY_IDS
    ]
    # the grid read row by row, for screen readers ("·" an empty place)
    text = " / ".join(" ".join(cell["glyph"] if cell else "·" for cell in row) for row in rows)
    return {"where": PLAN_WHERE[name], "rows": rows, "legend": legend, "text": text}


def _objective(objective_id: str) -> dict[str, Any]:
    objective = OBJECTIVE[objective_id]
    return {
        "id": objective_id,
        "name": _(objective.name),
        "rows": [[mark == "#" for mark in line] for line in objective.rows],
    }


def _result(outcome: Mapping[str, Any]) -> dict[str, Any]:
    checks = [(_("Every family is one group"), outcome.get("families_ok"))]
    if outcome.get("affinity_ok") is not None:
        checks.append((_("The affinity's two families touch"), outcome["affinity_ok"]))
    if outcome.get("objective_ok") is not None:
        checks.append((_("The yokai form the objective's shape"), outcome["objective_ok"]))
    return {
        "won": outcome.get("won"),
        "points": outcome.get("points"),
        "rating": _(RATING_LABELS[outcome["rating"]]) if outcome.get("rating") else "",
        "breakdown": outcome.get("breakdown") or {},
        "checks": [{"label": label, "ok": ok} for label, ok in checks],
    }


PRESENTER = YokaiBoard()
