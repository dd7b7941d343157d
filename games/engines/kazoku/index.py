"""Speed-ups of the Kazoku engines: bit masks, lookups and caches built once from the deck.

The rules modules (``families``, ``words``) read like the rulebook; what makes them fast
lives here, shared with their bots (``bots_families``, ``bots_words``):

- Families: ``Rules`` (per variant: family of each card, one bit per card, the cards a hand
  lacks per family as a subset table), ``hand_summary`` (memoised: what a hand may ask for and
  which families it holds complete) and ``ask_templates``.
- Words: the word index: what each of the 45 words needs, and which words can be formed from a
  set of available cards (hand, table, jokers, stealable word cards).

Built once per process from the deck fixture (``deck.load_deck``). Everything here is pure
and deterministic.

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

from games.engines.kazoku.deck import VARIANTS, load_deck

JOKER_PREFIX = "joker"
JOKERS_PER_DECK = 4


# --- families --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The groupings of one variant, as plain lookups (built once per variant)."""

    variant: str
    family_of: dict[str, str]  # card -> family
    members: dict[str, tuple[str, ...]]  # family -> its cards, in rule order
    member_sets: dict[str, frozenset[str]]
    order: dict[str, int]  # card -> deck position (hands are kept in this order)
    family_count: int
    bit: dict[str, int]  # card -> 1 << its deck position
    full: dict[str, int]  # family -> the bits of its cards
    # family -> {mask of its cards a hand lacks -> those cards, in rule order}
    lacking: dict[str, dict[int, tuple[str, ...]]]


@lru_cache(maxsize=len(VARIANTS))
def rules_for(variant: str) -> Rules:
    deck = load_deck()
    bit = {card: 1 << index for index, card in enumerate(deck.ids)}
    lacking = {}
    for family in deck.families[variant]:
        subsets = {}
        for chosen in range(1 << len(family.cards)):  # every subset of the family (<= 2**10)
            cards = tuple(card for i, card in enumerate(family.cards) if chosen >> i & 1)
            subsets[sum(bit[card] for card in cards)] = cards
        lacking[family.id] = subsets
    return Rules(
        variant=variant,
        family_of=dict(deck.family_of[variant]),
        members={family.id: family.cards for family in deck.families[variant]},
        member_sets={family.id: frozenset(family.cards) for family in deck.families[variant]},
        order={card: index for index, card in enumerate(deck.ids)},
        family_count=len(deck.families[variant]),
        bit=bit,
        full={family.id: sum(bit[c] for c in family.cards) for family in deck.families[variant]},
        lacking=lacking,
    )


@lru_cache(maxsize=16384)
def hand_summary(variant: str, hand: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the cards ``hand`` may ask for, the families it holds complete).

    Memoised (a pure function of immutable arguments): the same hands recur from state to
    state, and this is the engine's hot spot (see docs/bench.md).
    """
    rules = rules_for(variant)
    held = sum(map(rules.bit.__getitem__, hand))  # a hand holds each card once
    missing: list[str] = []
    complete = []
    for family in dict.fromkeys(map(rules.family_of.__getitem__, hand)):
        subsets = rules.lacking[family]
        lacking = subsets[rules.full[family] & ~held]
        if lacking:
            missing += lacking
        else:
            complete.append(family)
    return tuple(missing), tuple(complete)


@lru_cache(maxsize=6 * 7)
def ask_templates(players: int, seat: int) -> dict[str, tuple[dict, ...]]:
    """Card -> the asks of ``seat`` for it, one per opponent. Never handed out:
    ``legal_actions`` returns copies (``dict.copy`` of a flat dict is cheaper than building
    it, and a caller changing its copy cannot alter later answers)."""
    targets = [target for target in range(players) if target != seat]
    return {
        card: tuple({"type": "ask", "target": t, "card": card} for t in targets)
        for card in load_deck().ids
    }


# --- words -----------------------------------------------------------------------------------


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
    need_mask: int  # one bit per deck kana in ``needs`` (see ``KANA_BIT``)
    need_kana: tuple[str, ...]  # the deck kana in ``needs``
    single: bool  # every needed kana once, and never the word card's own kana again


@dataclass(frozen=True)
class WordIndex:
    words: Mapping[str, Word]  # base card id -> its word
    deck_kana: frozenset[str]
    uses: Mapping[str, tuple[str, ...]]  # kana id -> base ids of the words that need it


def base(card: str) -> str:
    """``"ka.2"`` -> ``"ka"``; ``"joker1.3"`` -> ``"joker1"``."""
    found = _BASE.get(card)
    if found is not None:
        return found
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


def _kana_of_all(decks: int) -> dict[str, str | None]:
    """Card id -> its kana id (``None`` for a joker), for every id of up to ``decks`` decks."""
    return {card: (None if is_joker(card) else base(card)) for card in deck_ids(decks)}


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
            need_mask=sum(1 << deck.ids.index(k) for k, _n in needs),
            need_kana=tuple(k for k, _n in needs),
            single=all(n == 1 and k != card_id for k, n in needs),
        )
        for k, _n in needs:
            uses.setdefault(k, []).append(card_id)
    return WordIndex(words=words, deck_kana=kana, uses={k: tuple(v) for k, v in uses.items()})


# --- finding formable words --------------------------------------------------------------------


def by_kana(cards: Iterable[str]) -> dict[str, list[str]]:
    """Non-joker cards grouped by kana, each group sorted (the canonical copy first)."""
    groups: dict[str, list[str]] = {}
    kana_of = KANA_OF
    for card in cards:
        kana = kana_of[card]
        if kana is not None:
            group = groups.get(kana)
            if group is None:
                groups[kana] = [card]
            else:
                group.append(card)
                group.sort()
    return groups


def stealable(scored: Sequence[Sequence[str]], seat: int) -> dict[str, list[tuple[int, str, int]]]:
    """Per kana, the (victim, card, word length) ``seat`` could steal: one canonical card per
    victim and kana (copies carry the same word, so the same length and points)."""
    words = word_index().words
    found: dict[str, list[tuple[int, str, int]]] = {}
    for victim, cards in enumerate(scored):
        if victim == seat or not cards:
            continue
        for card in sorted(cards):
            kana = KANA_OF[card]
            pairs = found.setdefault(kana, [])
            if not pairs or pairs[-1][0] != victim:
                pairs.append((victim, card, words[kana].length))
    return found


class StealInfo:
    """What ``seat`` could steal: ``below[n]`` = bits of the kana on opponents' word cards of
    fewer than n kana; ``victims`` = ``stealable(scored, seat)``, built on first use."""

    __slots__ = ("below", "_scored", "_seat", "_victims")

    def __init__(self, scored: Sequence[Sequence[str]], seat: int) -> None:
        by_length = [0] * 8
        for victim, cards in enumerate(scored):
            if victim != seat:
                for card in cards:
                    by_length[_LENGTH[card]] |= KANA_BIT[card]
        below = [0] * 8
        for n in range(1, 8):
            below[n] = below[n - 1] | by_length[n - 1]
        self.below = tuple(below)
        self._scored, self._seat, self._victims = scored, seat, None

    @property
    def victims(self) -> Mapping[str, list[tuple[int, str, int]]]:
        if self._victims is None:
            self._victims = stealable(self._scored, self._seat)
        return self._victims


@lru_cache(maxsize=4096)
def steal_info(scored: tuple[tuple[str, ...], ...], seat: int) -> StealInfo:
    """Memoised: scored word cards change only when a word is formed, so many states (and
    every seat's searches between two words) share one summary. Pure in its arguments; the
    lazily built ``victims`` is the same whoever builds it."""
    return StealInfo(scored, seat)


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


def _in_sight(
    hand: Sequence[str], table: Sequence[str]
) -> tuple[dict[str, str], dict[str, str], int, int, str | None]:
    """The canonical word cards (the lowest copy per kana, in the hand and on the table), the
    kana masks of both places and the lowest joker in the hand."""
    kana_of, bit_of = KANA_OF, KANA_BIT
    in_hand: dict[str, str] = {}
    on_table: dict[str, str] = {}
    hand_mask = table_mask = 0
    joker = None
    for card in hand:
        kana = kana_of[card]
        if kana is None:
            if joker is None or card < joker:
                joker = card
            continue
        hand_mask |= bit_of[card]
        known = in_hand.get(kana)
        if known is None or card < known:
            in_hand[kana] = card
    for card in table:
        kana = kana_of[card]
        table_mask |= bit_of[card]
        known = on_table.get(kana)
        if known is None or card < known:
            on_table[kana] = card
    return in_hand, on_table, hand_mask, table_mask, joker


def formable(
    hand: Sequence[str],
    table: Sequence[str],
    scored: Sequence[Sequence[str]],
    seat: int,
    *,
    steal: bool,
    first_only: bool = False,
    only: str | None = None,
    involving: int = 0,
    steals: StealInfo | None = None,
) -> list[dict]:
    """Every canonical ``form`` action ``seat`` may take (see ``docs/rules/kazoku-words.md``).

    Canonical choices keep the list short: the lowest id among identical copies in one place,
    the lowest joker id (which may stand for any kana but the word card's), one card per
    victim and kana. Different sources (hand, table, which victim, joker) are distinct actions.
    A cheap count check discards most words before the exact enumeration. ``only``: just the
    forms whose word card is that card id (to check one submitted action cheaply).
    ``involving``: a bit mask of kana (``KANA_BIT``); only words using one of them are tried.
    ``steals``: ``steal_info(scored, seat)``, when the caller has it at hand.
    """
    words = word_index().words
    bit_of = KANA_BIT
    in_hand, on_table, hand_mask, table_mask, joker = _in_sight(hand, table)
    avail = hand_mask | table_mask
    if steal:
        if steals is None:
            steals = steal_info(tuple(map(tuple, scored)), seat)  # hashable, for the memo
        stolen = steals.below
    else:
        stolen = _NO_STEALS
    spare_joker = 0 if joker is None else 1
    candidates = [(kana, card, False) for kana, card in in_hand.items()]
    candidates += [(kana, card, True) for kana, card in on_table.items()]
    found: list[dict] = []
    hand_k = table_k = victims = None
    facts = _FACTS
    for kana, word_card, from_table in candidates:
        if only is not None and word_card != only:
            continue
        need, length, wild, single = facts[kana]
        spare = spare_joker
        if wild:
            if wild > spare:
                continue
            spare = 0
        if involving and not ((bit_of[word_card] | need) & involving):
            continue
        missing = need & ~(avail | stolen[length])
        if missing and missing.bit_count() > spare:
            continue  # a cheap over-approximation: the exact enumeration decides
        if single and not need & (table_mask | stolen[length]):
            # the common case: every other kana once, only from the hand, and one way to spell
            # it: no joker to spare, or the joker standing for the one kana the hand lacks
            lacking = need & ~hand_mask
            if (not lacking and not spare) or (spare and lacking and not lacking & (lacking - 1)):
                found.append(_simple(words[kana], word_card, from_table, in_hand, joker))
                if first_only:
                    return found
                continue
        word = words[kana]
        if hand_k is None:
            hand_k, table_k = by_kana(hand), by_kana(table)
            victims = steals.victims if steal else {}
        for action in _forms_of(word, word_card, from_table, hand_k, table_k, joker, victims):
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
    steals: Mapping[str, list[tuple[int, str, int]]],
) -> list[dict]:
    per_kana = []
    spare_joker = joker is not None and not word.wild
    own, length = word.card, word.length
    simple = True  # one way only for every kana: no product to enumerate
    for kana, need in word.needs:
        in_hand = hand_k.get(kana, _NONE)
        on_table = table_k.get(kana, _NONE)
        if kana == own:  # a word needing its own kana again: not the word card itself
            in_hand = [c for c in in_hand if c != word_card]
            on_table = [c for c in on_table if c != word_card]
        victims = steals.get(kana, _NONE)
        if victims:
            victims = [(v, c) for v, c, n in victims if n < length]
        covered = len(in_hand) + len(on_table)
        if covered + len(victims) + spare_joker < need:
            return []
        if not victims and not on_table and covered >= need and not spare_joker:
            ways = _SIMPLE_WAYS[need]
        else:
            simple = False
            # the joker may stand for any kana but the word card's own place (both rule texts:
            # "remplacer n'importe quel kana"), also one the hand covers: keeping that card
            # for another word is a real choice
            ways = _ways(need, len(in_hand), len(on_table), range(len(victims)), spare_joker)
        per_kana.append((kana, in_hand, on_table, victims, ways))
    if simple:
        combo = tuple(entry[4][0] for entry in per_kana)
        return [_action(word, word_card, from_table, per_kana, combo, joker, word.wild)]
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


def _simple(word: Word, word_card: str, from_table: bool, in_hand, joker) -> dict:
    """The one form of a word whose other kana are each in the hand once (canonical copies),
    with the joker for the one kana missing from it or on no card, if any."""
    own = word.card
    cards = [word_card if kana == own else in_hand.get(kana, joker) for kana in word.kana_ids]
    return {
        "type": "form",
        "word": word_card,
        "cards": cards,
        "table": [word_card] if from_table else [],
        "steal": [],
        "joker": joker if joker in cards else None,
    }


_NO_STEALS = (0,) * 8
_NONE: tuple = ()
_SIMPLE_WAYS = {n: ((n, 0, (), 0),) for n in range(1, 8)}


def word_length_of(card: str) -> int:
    return word_index().words[KANA_OF[card]].length


def _action(word, word_card, from_table, per_kana, combo, joker, used_jokers) -> dict:
    pools: dict[str, list[str]] = {}
    table_used = [word_card] if from_table else []
    steal = []
    for (kana, in_hand, on_table, victims, _), (h, t, chosen, j) in zip(
        per_kana, combo, strict=True
    ):
        cards = [*in_hand[:h], *on_table[:t]]
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


_BASE: dict[str, str] = {}
KANA_OF: dict[str, str | None] = _kana_of_all(3)  # card id -> kana id; None for jokers
KANA_BIT: dict[str, int] = {  # card id -> one bit per kana (0 for jokers)
    card: 0 if kana is None else 1 << load_deck().ids.index(kana) for card, kana in KANA_OF.items()
}
_BASE.update({card: card.split(".")[0] for card in KANA_OF})
_FACTS: dict[str, tuple[int, int, int, bool]] = {  # kana -> what formable checks of its word
    kana: (word.need_mask, word.length, word.wild, word.single)
    for kana, word in word_index().words.items()
}
_LENGTH: dict[str, int] = {  # card id -> length of its word (jokers: none)
    card: word_index().words[kana].length for card, kana in KANA_OF.items() if kana
}
