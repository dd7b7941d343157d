"""Grid geometry for Yokai: orthogonal connectivity, legal destinations, shapes.

Positions are ``(row, col)`` integer pairs; the grid is unbounded (yokai may leave the 4 × 4
of the deal) but always one orthogonally connected group of 16 cards, so every function here
works on small sets (16 cells) and stays cheap without bit boards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

Pos = tuple[int, int]


def neighbours(pos: Pos) -> tuple[Pos, Pos, Pos, Pos]:
    r, c = pos
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))


def components(cells: Iterable[Pos]) -> list[set[Pos]]:
    """The orthogonally connected groups of ``cells``."""
    left = set(cells)
    groups = []
    while left:
        start = left.pop()
        group, frontier = {start}, [start]
        while frontier:
            for n in neighbours(frontier.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    frontier.append(n)
        groups.append(group)
    return groups


def is_connected(cells: Iterable[Pos]) -> bool:
    return len(components(cells)) <= 1


def destinations(occupied: frozenset[Pos], source: Pos) -> list[Pos]:
    """Empty places the card at ``source`` may move to, keeping one connected group.

    Without the moved card the rest splits into groups; the destination must be empty,
    different from ``source``, and touch every one of those groups (with one group: touch it).
    """
    rest = occupied - {source}
    groups = components(rest)
    candidates = {n for pos in rest for n in neighbours(pos)} - occupied
    candidates.discard(source)
    if len(groups) == 1:
        return sorted(candidates)
    return sorted(
        pos for pos in candidates if all(any(n in g for n in neighbours(pos)) for g in groups)
    )


def family_groups_connected(grid: Mapping[Pos, str], family_of: Mapping[str, str]) -> bool:
    """Every family forms one orthogonally connected group ("les Yokai sont apaisés")."""
    by_family: dict[str, list[Pos]] = {}
    for pos, card in grid.items():
        by_family.setdefault(family_of[card], []).append(pos)
    return all(is_connected(cells) for cells in by_family.values())


def families_touch(
    grid: Mapping[Pos, str], family_of: Mapping[str, str], first: str, second: str
) -> bool:
    """At least one card of ``first`` is orthogonally adjacent to one of ``second``."""
    for pos, card in grid.items():
        if family_of[card] != first:
            continue
        for n in neighbours(pos):
            if n in grid and family_of[grid[n]] == second:
                return True
    return False


def normalised(cells: Iterable[Pos]) -> frozenset[Pos]:
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


@lru_cache(maxsize=16)
def shape_variants(cells: frozenset[Pos]) -> frozenset[frozenset[Pos]]:
    """The shape turned by quarter turns and mirrored, each moved to the origin."""
    variants = set()
    current = list(cells)
    for _ in range(4):
        current = [(c, -r) for r, c in current]  # a quarter turn
        variants.add(normalised(current))
        variants.add(normalised((r, -c) for r, c in current))  # mirrored
    return frozenset(variants)


def has_shape(cells: Iterable[Pos], shape: frozenset[Pos]) -> bool:
    """``cells`` form ``shape``, up to a move, a turn or a mirror."""
    return normalised(cells) in shape_variants(frozenset(shape))
