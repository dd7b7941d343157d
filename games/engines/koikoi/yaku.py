"""The yaku judge: which yaku a set of cards scores under a ruleset, and the multipliers.

Table-driven: ``YAKU`` below is data — one row per yaku with its condition (named card sets
and counts), its points per setting and its group — and ``score_yaku`` is one small
interpreter of that table. Settings change rows (points, groups, increments) through
``_rows_for``, never through special cases in the judge. Default rules = §1 of
``shared/data/koikoi_yaku.md``; variants = its §3 (see ``docs/rules/koikoi.md``).

Condition vocabulary (every key optional, all must hold):

- ``all_of``: every card of the named set is in the pile;
- ``none_of``: no card of the named set is in the pile;
- ``at_least``: ``(set, n)``: at least ``n`` cards of the set;
- ``month``: the 4 cards of the round's month (``月札``, needs ``month``);
- ``four_of_a_month`` / ``four_pairs``: dealt-hand patterns (``手四`` / ``くっつき``).

Points: ``points`` (an int, or a dict keyed by the setting named in ``points_by``), plus
``+1 per card`` of ``extra_set`` beyond ``extra_from`` when increments are on.
Within a ``group`` only the best row scores (highest points, then table order).

Pure functions; card sets are bit masks over the 48 cards (``cards.Deck.bit``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engines.koikoi.cards import DECK

# --- the named card sets -------------------------------------------------------------------


def _ids(predicate: Any) -> frozenset[str]:
    return frozenset(card.id for card in DECK.cards.values() if predicate(card))


RAIN_MAN = DECK.with_flag("rain_man")
SAKE_CUP = DECK.with_flag("sake_cup")
LIGHTNING = DECK.with_flag("lightning")

CARD_SETS: dict[str, frozenset[str]] = {
    "brights": _ids(lambda c: c.kind == "bright"),
    "dry_brights": _ids(lambda c: c.kind == "bright" and "rain_man" not in c.flags),
    "rain_man": frozenset({RAIN_MAN}),
    "animals": _ids(lambda c: c.kind == "animal"),
    "ribbons": _ids(lambda c: c.kind == "ribbon"),
    "chaff": _ids(lambda c: c.kind == "chaff"),
    "chaff_and_cup": _ids(lambda c: c.kind == "chaff" or "sake_cup" in c.flags),
    "akatan": _ids(lambda c: c.ribbon_type == "poetry"),
    "aotan": _ids(lambda c: c.ribbon_type == "blue"),
    "poetry_and_blue": _ids(lambda c: c.ribbon_type in ("poetry", "blue")),
    "inoshikacho": _ids(lambda c: c.flags & {"boar", "deer", "butterflies"}),
    "hanami": _ids(lambda c: c.flags & {"curtain", "sake_cup"}),
    "tsukimi": _ids(lambda c: c.flags & {"moon", "sake_cup"}),
    "rain": _ids(lambda c: c.flags & {"rain_man", "lightning"}),
}
SET_MASKS: dict[str, int] = {name: DECK.mask(ids) for name, ids in CARD_SETS.items()}

# --- the table ------------------------------------------------------------------------------
# Points keyed by a setting: "bright_points" (10_5 | 15_6), "viewing" (5 | 3).

YAKU: tuple[dict[str, Any], ...] = (
    # brights: 五光 > 四光 > 雨四光 > 三光
    {"id": "goko", "kana": "ごこう", "group": "brights", "all_of": "brights",
     "points": {"10_5": 10, "15_6": 15}, "points_by": "bright_points"},
    {"id": "shiko", "kana": "しこう", "group": "brights", "all_of": "dry_brights",
     "none_of": "rain_man", "points": 8},
    {"id": "ame_shiko", "kana": "あめしこう", "group": "brights", "all_of": "rain_man",
     "at_least": ("dry_brights", 3), "points": 7},
    {"id": "sanko", "kana": "さんこう", "group": "brights", "at_least": ("dry_brights", 3),
     "none_of": "rain_man", "points": {"10_5": 5, "15_6": 6}, "points_by": "bright_points"},
    # the viewing yaku (each its own group: they add up)
    {"id": "hanami_zake", "kana": "はなみざけ", "group": "hanami", "all_of": "hanami",
     "points": {"5": 5, "3": 3}, "points_by": "viewing", "viewing": True},
    {"id": "tsukimi_zake", "kana": "つきみざけ", "group": "tsukimi", "all_of": "tsukimi",
     "points": {"5": 5, "3": 3}, "points_by": "viewing", "viewing": True},
    # animals: 猪鹿蝶 (+1 per animal beyond 3) replaces タネ
    {"id": "inoshikacho", "kana": "いのしかちょう", "group": "animals",
     "all_of": "inoshikacho", "points": 5, "extra_set": "animals", "extra_from": 3},
    {"id": "tane", "kana": "たね", "group": "animals", "at_least": ("animals", 5),
     "points": 1, "extra_set": "animals", "extra_from": 5},
    # ribbons: 重複 > 赤短 / 青短 > タン
    {"id": "akatan_aotan", "kana": "あかたん・あおたん", "group": "ribbons",
     "all_of": "poetry_and_blue", "points": 10, "extra_set": "ribbons", "extra_from": 6},
    {"id": "akatan", "kana": "あかたん", "group": "ribbons", "all_of": "akatan", "points": 5,
     "extra_set": "ribbons", "extra_from": 3},
    {"id": "aotan", "kana": "あおたん", "group": "ribbons", "all_of": "aotan", "points": 5,
     "extra_set": "ribbons", "extra_from": 3},
    {"id": "tan", "kana": "たん", "group": "ribbons", "at_least": ("ribbons", 5), "points": 1,
     "extra_set": "ribbons", "extra_from": 5},
    # chaff (the sake cup joins it with sake_cup=both)
    {"id": "kasu", "kana": "かす", "group": "chaff", "at_least": ("chaff", 10), "points": 1,
     "extra_set": "chaff", "extra_from": 10},
    # 月札, cards of the month (off by default)
    {"id": "tsukifuda", "kana": "つきふだ", "group": "tsukifuda", "month": True, "points": 4,
     "enabled_by": "tsukifuda"},
    # dealt hands, judged on the 8 cards dealt (off by default); one group: never 12
    {"id": "teshi", "kana": "てし", "group": "dealt", "four_of_a_month": True, "points": 6,
     "dealt": True},
    {"id": "kuttsuki", "kana": "くっつき", "group": "dealt", "four_pairs": True, "points": 6,
     "dealt": True},
)  # fmt: skip

# Per-setting changes to rows, as data: (option, value) -> {yaku id: overrides}.
VARIANT_OVERRIDES: dict[tuple[str, Any], dict[str, dict[str, Any]]] = {
    # "older" stacking: 猪鹿蝶 stacks with タネ; 赤短, 青短 and タン stack; no increments on
    # the named sets; no separate 重複.
    ("stacking", "older"): {
        "inoshikacho": {"group": "inoshikacho", "extra_set": None},
        "akatan": {"group": "akatan", "extra_set": None},
        "aotan": {"group": "aotan", "extra_set": None},
        "akatan_aotan": {"disabled": True},
    },
    ("sake_cup", "both"): {
        "kasu": {"at_least": ("chaff_and_cup", 10), "extra_set": "chaff_and_cup"},
    },
    ("sanko_rain_man", True): {
        "sanko": {"at_least": ("brights", 3), "none_of": None},
    },
    ("viewing", "off"): {"hanami_zake": {"disabled": True}, "tsukimi_zake": {"disabled": True}},
}

YAKU_IDS = tuple(row["id"] for row in YAKU)
YAKU_KANA = {row["id"]: row["kana"] for row in YAKU}

SCORING_DEFAULTS: dict[str, Any] = {
    "bright_points": "10_5",
    "sanko_rain_man": False,
    "viewing": "5",
    "viewing_rule": "always",
    "sake_cup": "animal",
    "stacking": "modern",
    "tsukifuda": False,
    "dealt_hands": "off",
    "double_at_seven": True,
    "koikoi_bonus": "opponent",
}


@dataclass(frozen=True)
class Row:
    """One yaku row with card-set names resolved to masks."""

    id: str
    group: str
    all_of: int
    none_of: int
    at_least_mask: int
    at_least: int
    points: int
    extra_mask: int
    extra_from: int
    month: bool
    four_of_a_month: bool
    four_pairs: bool
    viewing: bool
    dealt: bool


@dataclass(frozen=True)
class Judge:
    """The rows of one ruleset, split by scope, plus the viewing rule."""

    pile_rows: tuple[Row, ...]
    dealt_rows: tuple[Row, ...]
    viewing_rule: str
    rain_mask: int
    # pile_rows as plain tuples for the hot loop of judge_mask: (id, group, all_of, none_of,
    # count mask, count, points, extra mask, extra from, the Row if it has a special condition)
    fast_rows: tuple[tuple, ...] = ()
    # fast_rows by group behind a gate: (pool, need, (table index, *fast row)...) with
    # popcount(pile & pool) >= need true of every pile that any row of the group scores
    # (a lower bound derived from the rows), so that a group whose gate fails is skipped
    gates: tuple[tuple, ...] = ()


def _settings(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    merged = dict(SCORING_DEFAULTS)
    for key in SCORING_DEFAULTS:
        if options and key in options:
            merged[key] = options[key]
    return tuple(sorted(merged.items()))


def _rows_for(settings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The table with this ruleset's overrides applied (plain dicts, still data)."""
    rows = [dict(row) for row in YAKU]
    for (option, value), changes in VARIANT_OVERRIDES.items():
        if settings.get(option) == value:
            for row in rows:
                row.update(changes.get(row["id"], {}))
    kept = []
    for row in rows:
        enabled_by = row.get("enabled_by")
        if row.get("disabled") or (enabled_by and not settings.get(enabled_by)):
            continue
        if row.get("dealt") and settings.get("dealt_hands") == "off":
            continue
        kept.append(row)
    return kept


@lru_cache(maxsize=256)
def judge_for(settings: tuple[tuple[str, Any], ...]) -> Judge:
    """The resolved table for one ruleset (``settings`` as sorted items), built once."""
    by_name = dict(settings)
    rows = []
    for row in _rows_for(by_name):
        points = row["points"]
        if isinstance(points, dict):
            points = points[str(by_name[row["points_by"]])]
        at_least = row.get("at_least") or (None, 0)
        extra = row.get("extra_set")
        rows.append(
            Row(
                id=row["id"],
                group=row["group"],
                all_of=SET_MASKS[row["all_of"]] if row.get("all_of") else 0,
                none_of=SET_MASKS[row["none_of"]] if row.get("none_of") else 0,
                at_least_mask=SET_MASKS[at_least[0]] if at_least[0] else 0,
                at_least=at_least[1],
                points=points,
                extra_mask=SET_MASKS[extra] if extra else 0,
                extra_from=row.get("extra_from", 0),
                month=bool(row.get("month")),
                four_of_a_month=bool(row.get("four_of_a_month")),
                four_pairs=bool(row.get("four_pairs")),
                viewing=bool(row.get("viewing")),
                dealt=bool(row.get("dealt")),
            )
        )
    pile_rows = tuple(r for r in rows if not r.dealt)
    fast_rows = tuple(
        (
            r.id, r.group, r.all_of, r.none_of, r.at_least_mask, r.at_least, r.points,
            r.extra_mask, r.extra_from,
            r if (r.month or r.four_of_a_month or r.four_pairs) else None,
        )
        for r in pile_rows
    )  # fmt: skip
    return Judge(
        fast_rows=fast_rows,
        gates=_gates(pile_rows, fast_rows),
        pile_rows=pile_rows,
        dealt_rows=tuple(r for r in rows if r.dealt),
        viewing_rule=by_name["viewing_rule"],
        rain_mask=SET_MASKS["rain"],
    )


def _gates(pile_rows: tuple[Row, ...], fast_rows: tuple[tuple, ...]) -> tuple[tuple, ...]:
    """The rows grouped behind a cheap necessary condition (see ``Judge.gates``).

    A row needs ``popcount(pile & all_of) == popcount(all_of)`` and
    ``popcount(pile & at_least_mask) >= at_least``, so ``popcount(pile & (all_of |
    at_least_mask)) >= max(popcount(all_of), at_least)``; a group needs the weakest of its
    rows' bounds over the union of their pools. Rows with a month or dealt-hand condition get
    no bound (need 0: always judged).
    """
    groups: dict[str, list] = {}
    for index, (row, fast) in enumerate(zip(pile_rows, fast_rows, strict=True)):
        special = row.month or row.four_of_a_month or row.four_pairs
        need = 0 if special else max(row.all_of.bit_count(), row.at_least)
        gate = groups.setdefault(row.group, [0, need, []])
        gate[0] |= row.all_of | row.at_least_mask
        gate[1] = min(gate[1], need)
        gate[2].append((index, *fast))
    return tuple((pool, need, tuple(rows)) for pool, need, rows in groups.values())


def _month_counts(mask: int) -> list[int]:
    return [(mask & month).bit_count() for month in DECK.month_mask[1:]]


def _row_points(row: Row, mask: int, month: int | None) -> int:
    """The row's points for ``mask``, or 0 when its condition fails."""
    if row.all_of and mask & row.all_of != row.all_of:
        return 0
    if mask & row.none_of:
        return 0
    if row.at_least and (mask & row.at_least_mask).bit_count() < row.at_least:
        return 0
    if row.month:
        if not month or mask & DECK.month_mask[month] != DECK.month_mask[month]:
            return 0
    if row.four_of_a_month and 4 not in _month_counts(mask):
        return 0
    if row.four_pairs and any(count % 2 for count in _month_counts(mask)):
        return 0
    if row.four_pairs and mask.bit_count() != 8:
        return 0
    points = row.points
    if row.extra_mask:
        points += max(0, (mask & row.extra_mask).bit_count() - row.extra_from)
    return points


def judge_mask(judge: Judge, mask: int, month: int | None = None) -> list[tuple[str, int]]:
    """The yaku of the capture pile ``mask``: the best row of each group, in table order."""
    if mask & (mask - 1) == 0:
        return []  # no yaku has fewer than two cards
    scored = []
    for pool, need, rows in judge.gates:
        if need and (mask & pool).bit_count() < need:
            continue  # no row of this group can score (see ``_gates``)
        best = None
        for (
            index,
            row_id,
            _group,
            all_of,
            none_of,
            count_mask,
            count,
            points,
            extra,
            start,
            row,
        ) in rows:
            if mask & all_of != all_of or mask & none_of:
                continue
            if count and (mask & count_mask).bit_count() < count:
                continue
            if row is not None:  # a month or dealt-hand condition: the general reader
                points = _row_points(row, mask, month)
                if not points:
                    continue
            elif extra:
                points += max(0, (mask & extra).bit_count() - start)
            if best is None or points > best[1]:  # ties: the first row in table order
                best = (index, points, row_id)
        if best is not None:
            scored.append(best)
    if not scored:
        return []
    scored.sort()
    if judge.viewing_rule != "always":
        viewing = {row.id for row in judge.pile_rows if row.viewing}
        found = {row_id for _index, _points, row_id in scored}
        if viewing & found:
            cancelled = (judge.viewing_rule == "rain" and mask & judge.rain_mask) or (
                judge.viewing_rule == "with_other" and not found - viewing
            )
            if cancelled:
                scored = [entry for entry in scored if entry[2] not in viewing]
    return [(row_id, points) for _index, points, row_id in scored]


def score_yaku(
    card_ids: Iterable[str],
    options: Mapping[str, Any] | None = None,
    *,
    month: int | None = None,
    dealt_hand: bool = False,
) -> list[tuple[str, int]]:
    """The yaku the cards score under ``options`` (defaults: §1), as ``(id, points)`` pairs.

    ``card_ids``: a capture pile; with ``dealt_hand=True``, the 8 cards dealt to a player,
    judged for the dealt-hand yaku (``teshi``, ``kuttsuki``; only when ``dealt_hands`` is not
    ``"off"``). ``month`` (1-12; also read from ``options["month"]``): the round's month, for
    ``tsukifuda``. Unknown card ids raise ``ValueError``.
    """
    ids = list(card_ids)
    unknown = [card for card in ids if card not in DECK.bit]
    if unknown:
        raise ValueError(f"not hanafuda card ids: {unknown}")
    if len(set(ids)) != len(ids):
        raise ValueError("a card can be captured only once")
    judge = judge_for(_settings(options))
    mask = DECK.mask(ids)
    if month is None and options:
        month = options.get("month")
    if dealt_hand:
        best = [(row.id, _row_points(row, mask, None)) for row in judge.dealt_rows]
        scored = [pair for pair in best if pair[1]]
        return scored[:1]
    return judge_mask(judge, mask, month)


def multiplier(
    base: int,
    opponent_calls: int,
    own_calls: int,
    options: Mapping[str, Any] | None = None,
) -> int:
    """The factor applied to a base score (ARCHITECTURE-free; see ``final_score``)."""
    # the two settings it reads, as ``_settings`` would merge them (without merging them all)
    given = options or {}
    double = given.get("double_at_seven", SCORING_DEFAULTS["double_at_seven"])
    bonus = given.get("koikoi_bonus", SCORING_DEFAULTS["koikoi_bonus"])
    factor = 2 if double and base >= 7 else 1
    if bonus == "opponent" and opponent_calls:
        factor *= 2
    elif bonus == "self" and own_calls:
        factor *= 2
    elif bonus == "anyone" and (opponent_calls or own_calls):
        factor *= 2
    elif bonus == "per_call":
        factor *= 1 + opponent_calls + own_calls
    return factor


def final_score(
    yaku_points: int | Iterable[tuple[str, int]],
    opponent_called_koikoi: bool | int,
    options: Mapping[str, Any] | None = None,
    *,
    own_koikoi_calls: int = 0,
) -> int:
    """The round score of the player who called shōbu.

    ``yaku_points``: the base (sum of the yaku) or the ``score_yaku`` list.
    ``opponent_called_koikoi``: whether (or how many times) the opponent called koi-koi this
    round. Default (§1): ×2 at 7 or more, ×2 again if the opponent called (×4 at most).
    ``koikoi_bonus`` variants: ``self`` (×2 if the scorer called), ``anyone``, ``per_call``
    (×(1 + every call of the round); pass the scorer's own calls as ``own_koikoi_calls``).
    ``double_at_seven=False`` drops the ×2 at 7+.
    """
    if isinstance(yaku_points, int):
        base = yaku_points
    else:
        base = sum(points for _yaku, points in yaku_points)
    if base <= 0:
        return 0
    opponent_calls = int(opponent_called_koikoi)
    return base * multiplier(base, opponent_calls, own_koikoi_calls, options)


def yaku_progress(
    card_ids: Iterable[str],
    options: Mapping[str, Any] | None = None,
    *,
    blocked: Iterable[str] = (),
    month: int | None = None,
) -> list[tuple[str, int, int]]:
    """``(yaku id, cards held, cards needed)`` for every capture-pile yaku of the ruleset
    that ``card_ids`` has started and not yet formed, and that is still possible (the cards
    in ``blocked``, the opponent's pile, cannot be captured any more). For the board's
    "in reach" line (いのしかちょう 2/3) and for the bots.
    """
    judge = judge_for(_settings(options))
    mask, dead = DECK.mask(card_ids), DECK.mask(blocked)
    formed = {yaku_id for yaku_id, _points in judge_mask(judge, mask, month)}
    found = []
    for row in judge.pile_rows:
        if row.id in formed or row.none_of & mask:
            continue
        if row.month:
            if not month:
                continue
            pool, need = DECK.month_mask[month], 4
        else:
            pool, need = row.all_of | row.at_least_mask, row.all_of.bit_count() + row.at_least
        if not need:
            continue
        have = min((mask & row.all_of).bit_count(), row.all_of.bit_count())
        have += min((mask & row.at_least_mask & ~row.all_of).bit_count(), row.at_least)
        if row.month:
            have = (mask & pool).bit_count()
        if not have or (row.all_of & dead) or (pool & ~dead).bit_count() < need:
            continue
        found.append((row.id, have, need))
    return found
