"""CPU players of the Kazoku word game.

Stateless: every decision reads only the seat's view (its hand, the table, the scored word
cards, the public ``known`` cards of each hand, the discard) and the legal actions, so a bot
can run in any worker. ``legal_actions`` already lists every formable word (hand, table,
joker, legal steals; see ``index.formable``).

- easy: forms a random formable word, otherwise asks for a random allowed kana.
- normal: forms the word worth the most points; asks for a kana of the held word that misses
  the fewest cards (the richer of two as close), a kana publicly known in an opponent's hand
  first.
- hard: asks first whenever an ask may help (forming stays possible after the ask), then forms
  the most valuable word: its points, plus the points it steals (more from the leader), minus a
  little for each own card spent; asks for the kana that completes the most valuable reachable
  words, weighted by the chance of getting it (certain when an opponent is publicly known to
  hold it, nil when every copy is in sight).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.base import Bot
from games.engines.kazoku.index import base, is_joker, word_index


def _split(legal: Sequence[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    forms, asks, other = [], [], []
    for action in legal:
        kind = action["type"]
        (forms if kind == "form" else asks if kind == "ask" else other).append(action)
    return forms, asks, other


class EasyBot(Bot):
    level = "easy"

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random):
        forms, asks, other = _split(legal_actions)
        if forms:
            return rng.choice(forms)
        return rng.choice(asks or other)


class NormalBot(Bot):
    level = "normal"

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random):
        forms, asks, other = _split(legal_actions)
        words = word_index().words
        if forms:
            best = max(words[base(f["word"])].points for f in forms)
            return rng.choice([f for f in forms if words[base(f["word"])].points == best])
        if not asks:
            return other[0]
        allowed = {a["kana"] for a in asks}
        have = Counter(base(c) for c in [*view["hand"], *view["table"]] if not is_joker(c))
        best_gap, choices = None, []
        for card in view["hand"]:
            if is_joker(card):
                continue
            word = words[base(card)]
            missing = [k for k, n in word.needs if have[k] < n and k in allowed]
            gap = sum(max(0, n - have[k]) for k, n in word.needs) + word.wild
            rank = (gap, -word.points)  # the closest word, the richer of two as close
            if missing and (best_gap is None or rank < best_gap):
                best_gap, choices = rank, missing
        # a kana an opponent is known to hold (it was given or shown) is a sure ask
        known = {
            base(c) for s, cards in enumerate(view["known"]) if s != view["seat"] for c in cards
        }
        sure = sorted(k for k in choices if k in known)
        kana = rng.choice(sure or sorted(choices)) if choices else rng.choice(sorted(allowed))
        return {"type": "ask", "kana": kana}


class HardBot(Bot):
    level = "hard"

    def choose(self, view: Mapping[str, Any], legal_actions: Sequence[dict], rng: random.Random):
        forms, asks, other = _split(legal_actions)
        if asks:
            ask = self._best_ask(view, asks)
            if ask is not None or not forms:
                return ask or rng.choice(asks)
        if forms:
            return max(forms, key=lambda f: (self._form_value(view, f), f["word"]))
        return other[0]

    def _form_value(self, view: Mapping[str, Any], form: Mapping[str, Any]) -> float:
        words = word_index().words
        seat, scores = view["seat"], view["scores"]
        points = words[base(form["word"])].points
        value = float(points)
        options = view["options"]
        if options["end"] == "target" and scores[seat] + points >= options["target_points"]:
            value += 100
        leader = max(scores)
        for victim, card in form["steal"]:
            stolen = words[base(card)].points
            value += stolen * (1.5 if scores[victim] == leader else 1.0)
        own = sum(
            1
            for card in form["cards"]
            if card != form["word"] and card not in form["table"] and not is_joker(card)
        )
        own -= sum(1 for _v, _c in form["steal"])
        return value - 0.3 * own - (0.5 if form["joker"] else 0.0)

    def _best_ask(self, view: Mapping[str, Any], asks: Sequence[dict]) -> dict | None:
        words = word_index().words
        seat = view["seat"]
        hand = view["hand"]
        have = Counter(base(c) for c in [*hand, *view["table"]] if not is_joker(c))
        joker = any(is_joker(c) for c in hand)
        decks = view["options"]["decks"]
        seen = Counter(base(c) for c in _in_sight(view) if not is_joker(c))
        known_at = Counter(
            base(c) for s, cards in enumerate(view["known"]) if s != seat for c in cards
        )
        hidden = sum(n for s, n in enumerate(view["hand_sizes"]) if s != seat)
        hidden -= sum(len(cards) for s, cards in enumerate(view["known"]) if s != seat)
        unseen_total = max(1, hidden + view["pile_count"])
        values: Counter = Counter()
        for card in hand:
            if is_joker(card):
                continue
            word = words[base(card)]
            gaps = {k: max(0, n - have[k]) for k, n in word.needs}
            missing = sum(gaps.values()) + word.wild - (1 if joker else 0)
            if word.wild and not joker:
                missing += 1  # a kana on no card: needs a joker first
            for kana, gap in gaps.items():
                if gap:
                    values[kana] += word.points / (1 + max(0, missing - 1))
        best, best_value = None, 0.0
        for ask in asks:
            kana = ask["kana"]
            if not values[kana]:
                continue
            if known_at[kana]:
                chance = 1.0
            else:
                unseen = decks - seen[kana] - known_at[kana]
                chance = unseen * (hidden + 1) / unseen_total if unseen > 0 else 0.0
            score = values[kana] * min(1.0, chance)
            if score > best_value:
                best, best_value = ask, score
        return best


def _in_sight(view: Mapping[str, Any]) -> list[str]:
    cards = [*view["hand"], *view["table"], *view["discard"]]
    for scored in view["scored"]:
        cards += scored
    return cards


def make_bot(level: str) -> Bot:
    return {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}[level]()
