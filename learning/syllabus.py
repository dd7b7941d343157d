"""The learner's syllabus and its coverage: which kana are taught, in what order (pure).

Issue 27: every kana of the syllabus (both scripts unless one was chosen) is introduced, and
neither script starves. Hiragana-first teaching left katakana never asked in the simulation
(5.9 of 45 katakana ever asked at 6 minutes a day), so new kana are brought in from the
*weaker* script first: the one with more kana never answered.

No Django: the lesson, the quiz, the picker and ``bench/srs_sim.py`` call the same functions.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from learning import kana_table

SCRIPTS = kana_table.SCRIPTS
Pair = tuple[str, str]  # (kana_id, script)


def syllabus(scripts: Iterable[str] = SCRIPTS) -> list[Pair]:
    """The 46 basic kana (あ .. ん) of each chosen script, in gojūon order. Voiced kana
    (が, ぱ...) are the same glyphs with a mark: they are met and asked in play, not taught
    one by one."""
    return [
        (k, s)
        for s in SCRIPTS
        if s in set(scripts)
        for k in kana_table.kana_ids(s, basic_only=True)
    ]


def never_answered(pairs: Iterable[Pair], answered: Collection[Pair]) -> dict[str, int]:
    """Per script: how many of ``pairs`` were never answered (every script of ``pairs``)."""
    counts: dict[str, int] = {}
    for pair in pairs:
        counts.setdefault(pair[1], 0)
        if pair not in answered:
            counts[pair[1]] += 1
    return counts


def weaker_script(never: Mapping[str, int]) -> str | None:
    """The script to bring new kana in from: the one with the most kana never answered,
    when the scripts differ; None when none is left or they are level."""
    if not never or max(never.values()) == 0:
        return None
    ranked = sorted(never.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def introduction_order(pending: Iterable[Pair], never: Mapping[str, int]) -> list[Pair]:
    """The order new kana are taught: basic kana before voiced ones, each script in gojūon
    order, the scripts interleaved (あ ア い イ ...) with the weaker script's kana first, so
    that both scripts advance together and the one behind catches up."""
    weaker = weaker_script(never)
    by_script: dict[str, list[Pair]] = {}
    for pair in pending:
        by_script.setdefault(pair[1], []).append(pair)
    ranked: list[tuple[tuple, Pair]] = []
    for script, pairs in by_script.items():
        pairs.sort(key=lambda p: (not kana_table.info(*p).is_basic, kana_table.info(*p).order))
        # the weaker script is ahead by its deficit: it catches up, then they alternate
        lead = max(0, never.get(script, 0) - min(never.values(), default=0))
        for index, pair in enumerate(pairs):
            place = index - lead if script == weaker else index
            ranked.append(((place, script != weaker, SCRIPTS.index(script)), pair))
    ranked.sort(key=lambda item: item[0])
    return [pair for _key, pair in ranked]
