"""Elo ratings of ranked tables: one update per finished game, from the final ranks.

Every pair of players counts as one game between them: a better rank is a win (1), an equal
rank half a win (0.5), a worse rank a loss (0). A player's change is
``K / (n - 1) * sum over opponents (score - expected)`` with ``expected = 1 / (1 + 10 **
((opponent - mine) / 400))``, so a two-player game is classic Elo with ``K = 32`` and the
changes of a table always sum to zero. New players start at 1500. Which games may have ranked
tables is the engine's to say (``eng.ranked``, the Display contract).

Ranked play (docs/security.md §15): a ranked table has a turn timer; a player who leaves it
while it is played, whose turn timer runs out, or whose account is deleted **forfeits**: the
ratings are settled at once (``ratings_forfeit``), the forfeiter losing to every other player
and no other pair rated; the game then goes on unranked (a CPU player plays the forfeiter's
seat), and its end records nothing more. A CPU stand-in's move is never rated: a table where
one played is settled by a forfeit first, and ``ratings_record`` refuses any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.models import Move, Rating, RatingChange, Seat, Table

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
    if not table.ranked or _settled(table):
        return []
    humans = {index: seat for index, seat in seats.items() if seat.user_id is not None}
    if len(humans) != table.players:  # ranked tables are for humans only
        return []
    if Move.objects.filter(table=table, by_bot=True).exists():
        return []  # a CPU stand-in played (only after a forfeit, which settled the table)
    order = sorted(humans)
    ranks = [outcome["ranks"][index] for index in order]
    return _record(table=table, humans=humans, order=order, ranks=ranks, forfeit=None)


def forfeit_changes(ratings: Sequence[float], loser: int, k: float = K_FACTOR) -> list[float]:
    """The rating changes when player ``loser`` forfeits: they lose to every other player;
    the pairs between the others are not rated (their game was not finished between them).
    Two players: the same as ``elo_changes`` with ranks (2, 1) or (1, 2)."""
    n = len(ratings)
    if n < 2 or not 0 <= loser < n:
        raise ValueError("a forfeit needs two or more players, the loser among them")
    changes = [0.0] * n
    for i in range(n):
        if i == loser:
            continue
        gain = k / (n - 1) * (1.0 - expected_score(ratings[i], ratings[loser]))
        changes[i] += gain
        changes[loser] -= gain
    return changes


def ratings_forfeit(*, table: Table, index: int, seats: Mapping[int, Seat]) -> list[RatingChange]:
    """Seat ``index`` forfeits ranked ``table``: settle its ratings now (inside the caller's
    transaction, the table row locked). Nothing when the table is not ranked, is settled
    already (one forfeit per table) or lost a human player before (a deleted account)."""
    if not table.ranked or _settled(table):
        return []
    humans = {i: seat for i, seat in seats.items() if seat.user_id is not None}
    if len(humans) != table.players or index not in humans:
        return []
    order = sorted(humans)
    ranks = [table.players if i == index else 1 for i in order]
    changes = _record(table=table, humans=humans, order=order, ranks=ranks, forfeit=index)
    Table.objects.filter(pk=table.pk).update(forfeit_seat=index)  # the board says so
    table.forfeit_seat = index
    return changes


def _settled(table: Table) -> bool:
    return RatingChange.objects.filter(table=table).exists()


def _record(
    *,
    table: Table,
    humans: Mapping[int, Seat],
    order: list[int],
    ranks: list[int],
    forfeit: int | None,
) -> list[RatingChange]:
    rows = {
        index: Rating.objects.select_for_update().get_or_create(
            user_id=humans[index].user_id, engine=table.engine, defaults={"rating": START}
        )[0]
        for index in order
    }
    ratings = [rows[index].rating for index in order]
    if forfeit is None:
        changes = elo_changes(ratings, ranks)
    else:
        changes = forfeit_changes(ratings, order.index(forfeit))
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
