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
    if len(groups) == 1:
        candidates = {n for pos in rest for n in neighbours(pos)} - occupied
        candidates.discard(source)
        return sorted(candidates)
    group_of = {pos: index for index, group in enumerate(groups) for pos in group}
    smallest = min(groups, key=len)  # a place touching every group touches this one
    candidates = {n for pos in smallest for n in neighbours(pos)} - occupied
    candidates.discard(source)
    return sorted(
        pos
        for pos in candidates
        if len({group_of[n] for n in neighbours(pos) if n in group_of}) == len(groups)
    )


def articulation_points(cells: frozenset[Pos]) -> set[Pos]:
    """The cards whose removal splits a connected group in two or more (Tarjan's low links)."""
    order: dict[Pos, int] = {}
    low: dict[Pos, int] = {}
    cuts: set[Pos] = set()

    def visit(pos: Pos, parent: Pos | None) -> None:
        order[pos] = low[pos] = len(order)
        children = 0
        for n in neighbours(pos):
            if n not in cells or n == parent:
                continue
            if n in order:
                low[pos] = min(low[pos], order[n])
                continue
            children += 1
            visit(n, pos)
            low[pos] = min(low[pos], low[n])
            if parent is not None and low[n] >= order[pos]:
                cuts.add(pos)
        if parent is None and children > 1:
            cuts.add(pos)

    if cells:
        visit(next(iter(cells)), None)
    return cuts


def all_destinations(occupied: frozenset[Pos], sources: Iterable[Pos]) -> dict[Pos, list[Pos]]:
    """``destinations`` for several cards of one connected grid at once.

    A card that is no articulation point leaves the rest connected: any empty place touching
    another card will do, read from one count of occupied neighbours per empty place. Only the
    articulation points (few) need their groups computed (``destinations``).
    """
    cuts = articulation_points(occupied)
    touching: dict[Pos, int] = {}
    for pos in occupied:
        for n in neighbours(pos):
            if n not in occupied:
                touching[n] = touching.get(n, 0) + 1
    ring = sorted(touching)
    moves = {}
    for source in sources:
        if source in cuts:
            moves[source] = destinations(occupied, source)
            continue
        near = set(neighbours(source))
        moves[source] = [
            pos for pos in ring if pos != source and touching[pos] - (pos in near) >= 1
        ]
    return moves


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
