"""Elo ratings of ranked tables: one update per finished game, from the final ranks.

Every pair of players counts as one game between them: a better rank is a win (1), an equal
rank half a win (0.5), a worse rank a loss (0). A player's change is
``K / (n - 1) * sum over opponents (score - expected)`` with ``expected = 1 / (1 + 10 **
((opponent - mine) / 400))``, so a two-player game is classic Elo with ``K = 32`` and the
changes of a table always sum to zero. New players start at 1500. Which games may have ranked
tables is the engine's to say (``eng.ranked``, the Display contract).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.models import Rating, RatingChange, Seat, Table

K_FACTOR = 32.0
START = 1500.0


def expected_score(mine: float, theirs: float) -> float:
    return 1.0 / (1.0 + 10 ** ((theirs - mine) / 400.0))


def elo_changes(ratings: Sequence[float], ranks: Sequence[int], k: float = K_FACTOR) -> list[float]:
    """The rating change of each player (rank 1 = best, equal ranks tie)."""
    n = len(ratings)
    if n < 2 or len(ranks) != n:
        raise ValueError("Elo needs two or more players, each with a rank")
    changes = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i == j:
                continue
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            total += score - expected_score(ratings[i], ratings[j])
        changes.append(k / (n - 1) * total)
    return changes


def ratings_record(
    *, table: Table, outcome: Mapping[str, Any], seats: Mapping[int, Seat]
) -> list[RatingChange]:
    """Update the ratings of a finished ranked table's players (inside the caller's
    transaction, the one that finishes the table, so it runs once per game)."""
    if not table.ranked:
        return []
    humans = {index: seat for index, seat in seats.items() if seat.user_id is not None}
    if len(humans) != table.players:  # ranked tables are for humans only
        return []
    order = sorted(humans)
    rows = {
        index: Rating.objects.select_for_update().get_or_create(
            user_id=humans[index].user_id, engine=table.engine, defaults={"rating": START}
        )[0]
        for index in order
    }
    ranks = [outcome["ranks"][index] for index in order]
    changes = elo_changes([rows[index].rating for index in order], ranks)
    history = []
    for index, rank, change in zip(order, ranks, changes, strict=True):
        row = rows[index]
        before, row.rating = row.rating, row.rating + change
        row.games += 1
        row.save(update_fields=["rating", "games", "updated_at"])
        history.append(
            RatingChange(
                user_id=row.user_id,
                engine=table.engine,
                table=table,
                rank=rank,
                players=table.players,
                before=before,
                after=row.rating,
            )
        )
    return RatingChange.objects.bulk_create(history)
