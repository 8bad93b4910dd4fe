"""``python manage.py simulate --rules R --players N --seed S --count K [--bot greedy|random]
[--target T] [--hand-size H]``: K complete matches, one compact fives-scoresheet/1 per line."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scoring.rules import RULESETS
from scoring.simulate import BOTS, EndlessMatch, simulate_jsonl


class Command(BaseCommand):
    help = "Play complete matches with bots and print one fives-scoresheet/1 sheet per line."

    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rules", default="five-up", choices=sorted(RULESETS))
        parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--count", type=int, default=1)
        parser.add_argument("--bot", default="greedy", choices=BOTS)
        parser.add_argument("--target", type=int, default=None, help="raw points")
        parser.add_argument("--hand-size", type=int, default=None, dest="hand_size")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            lines = simulate_jsonl(
                rules=options["rules"],
                players=options["players"],
                seed=options["seed"],
                count=options["count"],
                bot=options["bot"],
                target=options["target"],
                hand_size=options["hand_size"],
            )
            out = sys.stdout
            for line in lines:
                out.write(line)
                out.write("\n")
            out.flush()
        except (ValueError, EndlessMatch) as exc:
            raise CommandError(str(exc)) from None
        except BrokenPipeError:
            raise SystemExit(2) from None
