"""A tiny engine for service tests that must not depend on a real game's rules.

"Count to N": seats take turns adding 1 or 2 to a running total; whoever reaches ``target``
wins. Each seat also holds one secret card, to check that views hide it.
"""

from __future__ import annotations

import random

from games.engines.base import Bot, Engine, IllegalAction, Option, competition_ranks

SECRETS = ("ka", "ki", "ku", "ke", "ko", "sa")


class FirstBot(Bot):
    def choose(self, view, legal_actions, rng: random.Random) -> dict:
        return legal_actions[-1]


class CountEngine(Engine):
    name = "count-test"
    OPTIONS = (Option("target", "int", 10, "Target", min=3, max=99),)
    MIN_PLAYERS, MAX_PLAYERS = 2, 4

    def new_game(self, players, seed, options=None):
        opts = self.validate_options(options)
        rng = random.Random(seed)
        cards = list(SECRETS)
        rng.shuffle(cards)
        return {
            "players": players,
            "target": opts["target"],
            "total": 0,
            "turn": 0,
            "secrets": cards[:players],
            "log": [],
            "winner": None,
        }

    def to_act(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def apply(self, state, seat, action):
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("not legal")
        total = state["total"] + action["n"]
        event = {"type": "add", "seat": seat, "n": action["n"]}
        new = {
            **state,
            "total": total,
            "turn": (seat + 1) % state["players"],
            "log": [*state["log"], event],
        }
        if total >= state["target"]:
            new["winner"] = seat
        return new, [event]

    def view(self, state, seat):
        return {
            "players": state["players"],
            "total": state["total"],
            "turn": state["turn"],
            "hand": [state["secrets"][seat]] if seat is not None else None,
            "kana": {state["secrets"][seat]: {"glyph": "?", "script": "hiragana"}}
            if seat is not None
            else {},
            "log": list(state["log"]),
            "over": state["winner"] is not None,
        }

    def is_over(self, state):
        return state["winner"] is not None

    def outcome(self, state):
        scores = [1 if seat == state["winner"] else 0 for seat in range(state["players"])]
        return {"scores": scores, "ranks": competition_ranks(scores)}

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)

    def bot(self, level):
        return FirstBot()

    def kana_on(self, card_id, options=None):
        return [card_id]

    def cards_shown(self, view):
        return {card: info["script"] for card, info in view["kana"].items()}

    def practice_presets(self):
        return [{"target": 10}]

    def practice(self, options):
        return frozenset(SECRETS)


ENGINE = CountEngine()
