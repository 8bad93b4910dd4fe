"""The harness's only code that imports Spinner: set up an event, and read the truth back.

Run as a separate process from the repository root (``harness.py`` does), with the same
``DATABASE_URL`` as the server::

    python benchmarks/load/django_side.py setup --slug S --tables N --out FILE
    python benchmarks/load/django_side.py verify --slug S
    python benchmarks/load/django_side.py health

``setup`` builds the event through the project's own services (as ``manage.py demo`` does):
2N partnerships registered and checked in, round 1 paired, published and started, and writes a
JSON file with, per table, the match id, the table's token (as ``manage.py table_link`` prints it)
and a valid simulated sheet (as ``manage.py simulate`` makes them).

``health`` prints JSON: what the director's desk says of the background processes (each
``*_health`` reader of ``tournaments.selectors.health``: down or not, and its message).

``verify`` prints JSON: per match the count of results and of current results, and the standings
snapshot a fresh recompute computes now (without writing anything).

If the services or selectors move, this is the file to update; the harness itself speaks HTTP only.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")


def setup(slug: str, tables: int, out: Path, rules: str) -> None:
    from django.contrib.auth.models import User

    from scoring.simulate import simulate_jsonl
    from tournaments.models import Entry, Event, Match, Round
    from tournaments.services import entries as entries_ser
    from tournaments.services import events as event_services
    from tournaments.services import round_generation, round_status
    from tournaments.services.entries import PlayerSpec
    from tournaments.services.table_links import table_token

    director, created = User.objects.get_or_create(username="load-director")
    if created:
        director.set_unusable_password()
        director.save()
    if Event.objects.filter(slug=slug).exists():
        raise SystemExit(f"event {slug!r} exists already: choose another --slug")
    today = datetime.date.today()
    event = event_services.create_event(
        actor=director,
        name=f"Load {slug}",
        slug=slug,
        start_date=today,
        end_date=today,
        status=Event.Status.RUNNING,
        rules=rules,
        entry_kind=Event.EntryKind.PARTNERSHIP,
        format=Event.Format.SWISS,
        swiss_rounds=5,
        first_round="random",
        tiebreaks=["buchholz", "spread"],
        public_listing=False,
    )
    for i in range(2 * tables):
        players = [PlayerSpec(f"Player {i}a", "Load Club"), PlayerSpec(f"Player {i}b", "Load Club")]
        entry = entries_ser.register_entry(
            actor=director, event=event, players=players, team_name=f"Team {i:04d}"
        )
        entries_ser.check_in_entry(actor=director, entry=entry)
    rnd = round_generation.generate_and_publish_round(event=event, actor=director)
    rnd = round_status.start_round(round=rnd, actor=director)
    matches = list(
        Match.objects.filter(round=rnd, is_bye=False).select_related("table").order_by("pk")
    )
    seed = int.from_bytes(hashlib.sha256(slug.encode()).digest()[:4], "big")
    sheets = list(simulate_jsonl(rules=rules, players=4, seed=seed, count=len(matches)))
    rows = [
        {
            "match": m.pk,
            "table": m.table.number,
            "entries": [m.entry_a_id, m.entry_b_id],
            # Each side of a table has its own link: side A claims, side B confirms.
            "tokens": [table_token(round_=rnd, table=m.table, side=side) for side in (0, 1)],
            "sheet": json.loads(line),
        }
        for m, line in zip(matches, sheets, strict=True)
    ]
    out.write_text(
        json.dumps(
            {
                "slug": slug,
                "round": rnd.number,
                "entries": Entry.objects.filter(event=event).count(),
                "round_status": Round.objects.get(pk=rnd.pk).status,
                "tables": rows,
            }
        )
    )


def verify(slug: str) -> None:
    from django.db.models import Count, Q

    from tournaments.models import Event, Match
    from tournaments.selectors import standings_records

    event = Event.objects.get(slug=slug)
    per_match = (
        Match.objects.filter(round__event=event, is_bye=False)
        .annotate(
            n_results=Count("results"),
            n_current=Count("results", filter=Q(results__is_current=True)),
        )
        .values_list("pk", "n_results", "n_current")
    )
    data, _ = standings_records.compute_snapshot_bytes(event_id=event.pk)
    json.dump(
        {
            "matches": {str(pk): [results, current] for pk, results, current in per_match},
            "fresh": json.loads(data),
        },
        sys.stdout,
    )


def health() -> None:
    from tournaments.selectors import health as readers

    said = {}
    for name in sorted(dir(readers)):
        reader = getattr(readers, name)
        if name.endswith("_health") and callable(reader):
            answer = reader()
            said[name] = {"down": answer.down, "message": str(answer.message)}
    json.dump(said, sys.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("setup")
    p.add_argument("--slug", required=True)
    p.add_argument("--tables", type=int, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--rules", default="five-up")
    v = sub.add_parser("verify")
    v.add_argument("--slug", required=True)
    sub.add_parser("health")
    args = parser.parse_args()

    import django

    django.setup()
    if args.command == "setup":
        setup(args.slug, args.tables, args.out, args.rules)
    elif args.command == "health":
        health()
    else:
        verify(args.slug)


if __name__ == "__main__":
    main()
