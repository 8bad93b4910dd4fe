"""The placement bounds of ``scoring.bounds`` against simulated play: how often each score is
seen, the largest seen, and how many scoring placements the "check this" line warns about.

Usage, from the project's root: ``.venv/bin/python benchmarks/engine/score_bounds.py [COUNT]``
(COUNT matches per player count and bot, default 150; seed 1).
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring import find_ruleset, simulate
from scoring.bounds import placement_bound, rare_above


def main(count: int) -> None:
    for rules in ("five-up", "all-fives", "five-up-7"):
        r = find_ruleset(rules)
        seen: collections.Counter[int] = collections.Counter()
        hand_top = 0
        for players in (2, 3, 4):
            for bot in ("greedy", "random"):
                for sheet in simulate(rules, players, seed=1, count=count, bot=bot):
                    for h in sheet["hands"]:
                        per: collections.Counter[int] = collections.Counter()
                        for m in h["moves"]:
                            if m.get("score"):
                                seen[m["score"]] += 1
                                per[m["seat"]] += m["score"]
                        hand_top = max(hand_top, *per.values(), 0)
        n = sum(seen.values())
        bound, rare = placement_bound(r), rare_above(r)
        above = sum(k for s, k in seen.items() if s > rare)
        print(
            f"{rules:10s} bound {bound:3d}  rare above {rare:3d}  scoring placements {n:7d}"
            f"  largest seen {max(seen):3d}  above the rare line {above} ({100 * above / n:.3f} %)"
            f"  one seat's most in a hand {hand_top}"
        )
        print("           " + ", ".join(f"{s}: {k}" for s, k in sorted(seen.items())))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
