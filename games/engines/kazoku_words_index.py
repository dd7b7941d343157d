"""Word index of the Kazoku word game: what each of the 45 words needs, and which words can be
formed from a set of available cards (hand, table, jokers, stealable word cards).

Built once per process from the deck fixture (``kazoku_deck.load_deck``). Everything here is
pure and deterministic; the engine (``kazoku_words``) and the bots (``kazoku_words_bots``)
share it.

Card ids: the 45 kana ids (``"ka"``), jokers ``"joker1"``..``"joker4"``; copies from extra
decks carry a suffix (``"ka.2"``, ``"joker3.3"``). ``base(card)`` strips the suffix.

A word of N kana is formed with N cards: its word card (supplying its own kana once), one card
per other kana, and at most one joker. ``Word.needs`` lists the deck kana still needed once the
word card is laid; ``Word.wild`` counts kana on no card (voiced, small), which only a joker can
stand for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from games.engines.kazoku_deck import load_deck

JOKER_PREFIX = "joker"
JOKERS_PER_DECK = 4


@dataclass(frozen=True)
class Word:
    card: str  # base id of the word card
    kana: str  # hiragana spelling
    kana_ids: tuple[str, ...]
    needs: tuple[tuple[str, int], ...]  # (deck kana id, count) besides the word card
    wild: int  # kana on no card: a joker must stand for them
    length: int
    points: int
    star: bool


@dataclass(frozen=True)
class WordIndex:
    words: Mapping[str, Word]  # base card id -> its word
    deck_kana: frozenset[str]
    uses: Mapping[str, tuple[str, ...]]  # kana id -> base ids of the words that need it


def base(card: str) -> str:
    """``"ka.2"`` -> ``"ka"``; ``"joker1.3"`` -> ``"joker1"``."""
    dot = card.find(".")
    return card if dot < 0 else card[:dot]


def is_joker(card: str) -> bool:
    return card.startswith(JOKER_PREFIX)


def deck_ids(decks: int) -> tuple[str, ...]:
    """Every card id of a game with ``decks`` decks mixed (45 kana + 4 jokers per deck)."""
    one = load_deck().ids + tuple(f"{JOKER_PREFIX}{n}" for n in range(1, JOKERS_PER_DECK + 1))
    ids = list(one)
    for copy in range(2, decks + 1):
        ids.extend(f"{card}.{copy}" for card in one)
    return tuple(ids)


@lru_cache(maxsize=1)
def word_index() -> WordIndex:
    deck = load_deck()
    kana = frozenset(deck.ids)
    words = {}
    uses: dict[str, list[str]] = {}
    for card_id in deck.ids:
        raw = deck.cards[card_id].extra["word"]
        counts: dict[str, int] = {}
        for kana_id in raw["kana_ids"]:
            counts[kana_id] = counts.get(kana_id, 0) + 1
        counts[card_id] -= 1
        needs = tuple((k, n) for k, n in counts.items() if k in kana and n > 0)
        words[card_id] = Word(
            card=card_id,
            kana=raw["kana"],
            kana_ids=tuple(raw["kana_ids"]),
            needs=needs,
            wild=sum(n for k, n in counts.items() if k not in kana),
            length=len(raw["kana_ids"]),
            points=raw["points"],
            star=raw["star"],
        )
        for k, _n in needs:
            uses.setdefault(k, []).append(card_id)
    return WordIndex(words=words, deck_kana=kana, uses={k: tuple(v) for k, v in uses.items()})


# --- finding formable words --------------------------------------------------------------------


def by_kana(cards: Iterable[str]) -> dict[str, list[str]]:
    """Non-joker cards grouped by kana, each group sorted (the canonical copy first)."""
    groups: dict[str, list[str]] = {}
    for card in cards:
        if not is_joker(card):
            groups.setdefault(base(card), []).append(card)
    for group in groups.values():
        group.sort()
    return groups


def stealable(scored: Sequence[Sequence[str]], seat: int) -> dict[str, list[tuple[int, str]]]:
    """Per kana, the (victim, card) pairs ``seat`` could steal: one canonical card per victim
    and kana (copies carry the same word, so the same length and points)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for victim, cards in enumerate(scored):
        if victim == seat:
            continue
        for card in sorted(cards):
            kana = base(card)
            pairs = found.setdefault(kana, [])
            if not pairs or pairs[-1][0] != victim:
                pairs.append((victim, card))
    return found


def _ways(
    need: int,
    hand: int,
    table: int,
    victims: Sequence[int],
    joker_ok: bool,
) -> list[tuple[int, int, tuple[int, ...], int]]:
    """Ways to cover ``need`` copies of one kana: (from hand, from table, victims, joker)."""
    ways = []
    for h in range(min(hand, need), -1, -1):
        for t in range(min(table, need - h), -1, -1):
            rest = need - h - t
            jokers = (0, 1) if joker_ok and rest >= 1 else (0,)
            for j in jokers:
                r = rest - j
                if r > len(victims):
                    continue
                for chosen in combinations(victims, r):
                    ways.append((h, t, chosen, j))
    return ways


def formable(
    hand: Sequence[str],
    table: Sequence[str],
    scored: Sequence[Sequence[str]],
    seat: int,
    *,
    steal: bool,
    first_only: bool = False,
) -> list[dict]:
    """Every canonical ``form`` action ``seat`` may take (see ``docs/rules/kazoku-words.md``).

    Canonical choices keep the list short: the lowest id among identical copies in one place,
    the lowest joker id, a joker only for a kana that hand and table cannot cover, one card per
    victim and kana. Different sources (hand, table, which victim, joker) are distinct actions.
    """
    index = word_index()
    hand_k = by_kana(hand)
    table_k = by_kana(table)
    jokers = sorted(card for card in hand if is_joker(card))
    joker = jokers[0] if jokers else None
    steals = stealable(scored, seat) if steal else {}
    found: list[dict] = []
    for word_card, from_table in _word_cards(hand_k, table_k):
        word = index.words[base(word_card)]
        if word.wild > 1 or (word.wild and joker is None):
            continue
        actions = _forms_of(word, word_card, from_table, hand_k, table_k, joker, steals)
        for action in actions:
            found.append(action)
            if first_only:
                return found
    return found


def _word_cards(
    hand_k: Mapping[str, list[str]], table_k: Mapping[str, list[str]]
) -> list[tuple[str, bool]]:
    cards = [(group[0], False) for group in hand_k.values()]
    cards += [(group[0], True) for group in table_k.values()]
    return cards


def _forms_of(
    word: Word,
    word_card: str,
    from_table: bool,
    hand_k: Mapping[str, list[str]],
    table_k: Mapping[str, list[str]],
    joker: str | None,
    steals: Mapping[str, list[tuple[int, str]]],
) -> list[dict]:
    per_kana = []
    spare_joker = joker is not None and not word.wild
    for kana, need in word.needs:
        in_hand = [c for c in hand_k.get(kana, ()) if c != word_card]
        on_table = [c for c in table_k.get(kana, ()) if c != word_card]
        victims = [(v, c) for v, c in steals.get(kana, ()) if word_length_of(c) < word.length]
        if len(in_hand) + len(on_table) + len(victims) + spare_joker < need:
            return []
        # a joker only where hand and table fall short (a bounded choice, never a whim)
        joker_ok = spare_joker and len(in_hand) + len(on_table) < need
        ways = _ways(need, len(in_hand), len(on_table), range(len(victims)), joker_ok)
        per_kana.append((kana, in_hand, on_table, victims, ways))
    actions = []
    for combo in product(*(entry[4] for entry in per_kana)):
        used_jokers = sum(way[3] for way in combo) + word.wild
        if used_jokers > 1:
            continue
        victims_used = [per_kana[i][3][v][0] for i, way in enumerate(combo) for v in way[2]]
        if len(set(victims_used)) != len(victims_used):
            continue
        actions.append(_action(word, word_card, from_table, per_kana, combo, joker, used_jokers))
    return actions


def word_length_of(card: str) -> int:
    return word_index().words[base(card)].length


def _action(word, word_card, from_table, per_kana, combo, joker, used_jokers) -> dict:
    pools: dict[str, list[str]] = {}
    table_used = [word_card] if from_table else []
    steal = []
    for (kana, in_hand, on_table, victims, _), (h, t, chosen, j) in zip(
        per_kana, combo, strict=True
    ):
        cards = in_hand[:h] + on_table[:t]
        table_used += on_table[:t]
        for v in chosen:
            steal.append(victims[v])
            cards.append(victims[v][1])
        if j:
            cards.append(joker)
        pools[kana] = cards
    spelled = []
    placed_word_card = False
    for kana_id in word.kana_ids:
        if kana_id == word.card and not placed_word_card:
            spelled.append(word_card)
            placed_word_card = True
        elif kana_id in pools and pools[kana_id]:
            spelled.append(pools[kana_id].pop(0))
        else:
            spelled.append(joker)  # a kana on no card
    steal.sort()
    return {
        "type": "form",
        "word": word_card,
        "cards": spelled,
        "table": sorted(table_used),
        "steal": [[v, c] for v, c in steal],
        "joker": joker if used_jokers else None,
    }
