"""Koi-Koi (こいこい), the two-player hanafuda game (engine ``koikoi``).

Modules: ``cards`` (the 48 cards from ``hanafuda.json``), ``yaku`` (the table-driven yaku
judge and multipliers), ``rules`` (the rulebook, step by step: what may be played and the one
implementation of a turn), ``engine`` (the contract), ``index`` (the bit masks and deal
helpers the rules use), ``bots`` (CPU players).
Interpretations: ``docs/rules/koikoi.md``.

    from games.engines.koikoi import score_yaku, final_score
"""

from games.engines.koikoi.engine import ENGINE, KoiKoi
from games.engines.koikoi.yaku import YAKU, YAKU_IDS, final_score, score_yaku

__all__ = ["ENGINE", "YAKU", "YAKU_IDS", "KoiKoi", "final_score", "score_yaku"]
