"""The longest list of `form` actions the word game offers, over seeded random and bot games.

    .venv/bin/python bench/words_forms.py [--games 300]

Per option set, half the games are played with random legal actions and half by bots (easy,
normal and hard in rotation). The figure is quoted in docs/rules/kazoku-words.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines import get_engine  # noqa: E402

OPTION_SETS = (
    {},
    {"table_cards": 5},
    {"decks": 3, "table_cards": 5, "end": "pile_empty", "script": "mixed"},
)


def longest_form_list(options: dict, games: int) -> int:
    eng = get_engine("kazoku-words")
    longest = 0
    for g in range(games):
        players = 2 + g % 5
        rng = random.Random(g)
        bots = [eng.bot(("easy", "normal", "hard")[(g + s) % 3]) for s in range(players)]
        state = eng.new_game(players, g, options)
        while not eng.is_over(state):
            seat = eng.to_act(state)[0]
            legal = eng.legal_actions(state, seat)
            longest = max(longest, sum(1 for a in legal if a["type"] == "form"))
            if g % 2:
                action = rng.choice(legal)
            else:
                action = bots[seat].choose(eng.view(state, seat), legal, rng)
            state, _ = eng.apply(state, seat, action)
    return longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    for options in OPTION_SETS:
        print(f"{options or 'default'}: at most {longest_form_list(options, args.games)} forms")


if __name__ == "__main__":
    main()
