#!/usr/bin/env python3
"""Run a whole Spinner event through its REST API, as a club's own tool would.

    python docs/examples/api_client.py --base-url http://127.0.0.1:8000 --token KEY

It creates an event, registers 8 partnerships, checks them in, then plays it: each Swiss round
generated (a background job, polled), reviewed and published; every table's result entered from
that table's own links (side A claims with a scoresheet, side B confirms it); each round
closed; a tiebreak round where entries tie across the play-off's cut; the play-off seeded and
advanced to its final; the event finished; the final placings and standings printed.

``--demo`` plays the demo event's field instead (``manage.py demo``): the same settings and the
same 24 partnerships (its players, by id), registered in a new event, since the demo's own
registration closed long ago. ``KEY`` is a director's API key (``manage.py api_token USER``).

Standard library only (Python 3.9+). The scoresheets come from a small generator that writes the
public ``fives-scoresheet/1`` tally form (docs: the scoresheet format): random but valid games.
See docs/api.md for the API this walks through.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

RETRIES = 5
"""Transient failures (no answer, 5xx, 429) are retried with the same Idempotency-Key."""


class ApiError(Exception):
    """An error answer: ``{"code", "message", "details"}`` and its HTTP status."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.code = str(body.get("code", "error"))
        self.details = body.get("details") or {}
        super().__init__(f"{status} {self.code}: {body.get('message', '')}")


class Api:
    """A JSON client: ``Authorization`` on every request, an ``Idempotency-Key`` on every write
    (the same on a retry, so a lost answer never makes a write twice)."""

    def __init__(self, base_url: str, authorization: str) -> None:
        self.base = base_url.rstrip("/")
        self.authorization = authorization

    def as_table(self, token: str) -> Api:
        """The same server, as one side of a table (its link's token)."""
        return Api(self.base, f"Table {token}")

    def get(self, path: str, **query: Any) -> Any:
        url = path if path.startswith("http") else self.base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        return self._send("GET", url, None, {})[1]

    def post(self, path: str, body: Any = None, *, if_match: str | None = None) -> Any:
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        if if_match is not None:
            headers["If-Match"] = if_match
        _, data, answer = self._send("POST", self.base + path, body or {}, headers)
        return data, answer

    def _send(self, method: str, url: str, body: Any, headers: dict[str, str]) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": self.authorization, "Accept": "application/json", **headers}
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(RETRIES):
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    raw = response.read()
                    return response.status, json.loads(raw) if raw else None, response.headers
            except urllib.error.HTTPError as exc:
                raw = exc.read()
                if exc.code >= 500 or exc.code == 429:
                    wait = float(exc.headers.get("Retry-After") or 2**attempt)
                    time.sleep(min(wait, 30))
                    continue
                raise ApiError(exc.code, json.loads(raw) if raw else {}) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                time.sleep(2**attempt)
        raise SystemExit(f"{method} {url}: no answer after {RETRIES} tries")

    def pages(self, path: str, **query: Any) -> list[Any]:
        """Every row of a list, following its cursor's ``next`` links."""
        page = self.get(path, **query)
        rows = list(page["results"])
        while page.get("next"):
            page = self.get(page["next"])
            rows.extend(page["results"])
        return rows


# --- Scoresheets: the public fives-scoresheet/1 tally form ---------------------------------------


def round5(pips: int) -> int:
    """Pips rounded to a multiple of five: remainders 1 and 2 down, 3 and 4 up."""
    return pips - pips % 5 + (5 if pips % 5 >= 3 else 0)


def _over(scores: list[int], target: int) -> int | None:
    """The entity that has won: at least the target, and alone at the top."""
    top = max(scores)
    return scores.index(top) if top >= target and scores.count(top) == 1 else None


def _settle(rules: str, scores: list[int], remaining: list[int], finisher: int, owner: Any) -> None:
    """A dominoed hand's settlement, as the rules page says (five-up: each seat's pips rounded
    and debited to its side; all-fives: the winner gets round5 of all opponents' pips together;
    five-up-7: the sum of each opponent's round5)."""
    winner = owner(finisher)
    if rules == "five-up":
        for seat, pips in enumerate(remaining):
            scores[owner(seat)] -= round5(pips)
        return
    opponents = [pips for seat, pips in enumerate(remaining) if owner(seat) != winner]
    if rules == "all-fives":
        scores[winner] += round5(sum(opponents))
    else:
        scores[winner] += sum(round5(p) for p in opponents)


def play_game(game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A finished game for ``game`` (what ``GET /api/table/`` says every sheet must describe:
    rules, players, partnerships, target, hand_size): hands in tally form until one side wins.
    A favourite side scores more often, so games end with a winner in a dozen hands or so."""
    rules, players, target = game["rules"], game["players"], game["target"]
    sides = 2 if game["partnerships"] else players

    def owner(seat: int) -> int:
        return seat % sides

    at_once = rules != "five-up"  # all-fives and five-up-7 end the moment a side wins
    favourite = rng.randrange(sides)
    scores, hands, leader = [0] * sides, [], rng.randrange(players)
    while True:
        hand: dict[str, Any] = {"leader": leader, "tally": []}
        hands.append(hand)
        for _ in range(rng.randint(3, 6)):
            seat = rng.randrange(players)
            if rng.random() < 0.3 and owner(seat) != favourite:
                seat = (seat + 1) % players
            points = 5 * rng.randint(1, 5)
            hand["tally"].append({"seat": seat, "score": points})
            scores[owner(seat)] += points
            if at_once and _over(scores, target) is not None:
                return _sheet(game, hands, scores, _over(scores, target))
        finisher = rng.randrange(players)
        remaining = [0 if seat == finisher else rng.randint(0, 12) for seat in range(players)]
        hand.update(end="domino", finisher=finisher, remaining=remaining)
        _settle(rules, scores, remaining, finisher, owner)
        winner = _over(scores, target)
        if winner is not None:
            return _sheet(game, hands, scores, winner)
        leader = finisher  # who dominoed leads the next hand


def _sheet(game: dict[str, Any], hands: list[Any], scores: list[int], winner: Any) -> Any:
    return {
        "format": "fives-scoresheet/1",
        "rules": game["rules"],
        "players": game["players"],
        "partnerships": game["partnerships"],
        "target": game["target"],
        "hand_size": game["hand_size"],
        "hands": hands,
        "result": {"scores": scores, "winner": winner},
    }


# --- The event --------------------------------------------------------------------------------


# fmt: off
FIRST = ["Ada", "Ben", "Cleo", "Dev", "Esme", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lea",
         "Mo", "Nia", "Oto", "Pia"]
CLUBS = ["Brixton Fives", "Leeds Dominoes", "Moss Side Fives", "Port of Spain Social"]
# What an event's detail holds besides its settings (not sent back when copying them).
NOT_SETTINGS = {"slug", "name", "status", "salt", "league", "finished_at", "placings",
                "created_at", "updated_at", "version", "start_date", "end_date"}
# fmt: on


class Director:
    """The director's side of the walk (the ``Token`` key), with a log line per step."""

    def __init__(self, api: Api, slug: str, seed: int, quiet: bool) -> None:
        self.api, self.slug, self.quiet = api, slug, quiet
        self.rng = random.Random(seed)
        self.event = f"/api/events/{slug}/"

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, flush=True)

    # Registration.

    def create_event(self, settings: dict[str, Any], name: str) -> None:
        today = datetime.date.today().isoformat()
        body = {**settings, "name": name, "slug": self.slug, "start_date": today, "end_date": today}
        self.api.post("/api/events/", body)
        self.api.post(self.event + "publish/", {"status": "registration"})
        self.say(f"created {name} at /events/{self.slug}/, registration open")

    def register(self, entries: list[dict[str, Any]]) -> list[int]:
        ids = [self.api.post(self.event + "entries/", entry)[0]["id"] for entry in entries]
        for entry_id in ids:
            self.api.post(self.event + f"entries/{entry_id}/check-in/")
        self.api.post(self.event + "publish/", {"status": "running"})
        self.say(f"{len(ids)} entries registered and checked in; the event is running")
        return ids

    # Rounds.

    def run(self) -> dict[str, Any]:
        """Play the event to its end: one director's move at a time, as the pages lead."""
        while True:
            rounds = self.api.pages(self.event + "rounds/")
            draft = next((r for r in rounds if r["status"] == "draft"), None)
            if draft is not None:
                self.publish(draft)
                continue
            open_ = [r for r in rounds if r["status"] in ("published", "in_play")]
            for rnd in open_:
                self.play(rnd)
            swiss_open = [r for r in open_ if r["kind"] != "playoff"]
            for rnd in swiss_open:
                self.api.post(self.event + f"rounds/{rnd['number']}/close/")
                self.say(f"round {rnd['number']} closed")
            if swiss_open:
                continue
            if any(r["kind"] == "playoff" for r in rounds):
                if not self.advance_playoff():
                    break
            elif not self.next_round():
                break
        finished, _ = self.api.post(self.event + "finish/")
        self.say("the event is finished")
        return dict(finished)

    def next_round(self) -> bool:
        """Generate what comes next: a Swiss round, else the play-off (a tiebreak round first
        while entries tie across its cut). False when nothing is left to play."""
        for kind in ("next", "playoff", "tiebreak"):
            try:
                self.generate(kind)
                return True
            except ApiError as exc:
                if exc.code == "playoff_needs_seeding" and kind == "next":
                    continue  # the Swiss rounds are over: seed the play-off
                if exc.code == "tied_at_cut" and kind == "playoff":
                    continue  # a tie across the cut: a tiebreak round first
                if exc.code == "schedule_complete":
                    return False  # no play-off: every round is played
                raise
        return False

    def generate(self, kind: str) -> None:
        deadline = time.monotonic() + 120
        while True:
            try:
                _, answer = self.api.post(self.event + "rounds/generate/", {"kind": kind})
                break
            except ApiError as exc:  # the standings catch up a few seconds after a result
                if exc.code != "standings_updating" or time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        job = self.wait(answer["Location"])
        self.say(f"{job['kind_label'].lower()}: round {job['round']['number']} drafted")

    def wait(self, url: str) -> dict[str, Any]:
        """Poll a background job until it is done (or say why it failed)."""
        deadline = time.monotonic() + 300
        while True:
            job = self.api.get(url)
            if job["status"] == "done":
                return dict(job)
            if job["status"] == "failed":
                raise ApiError(409, job["error"])
            if time.monotonic() > deadline:
                raise SystemExit(f"job {url} still {job['status']}: is a worker running?")
            time.sleep(0.3)

    def publish(self, rnd: dict[str, Any]) -> None:
        number = rnd["number"]
        review = self.api.get(self.event + f"rounds/{number}/")
        for problem in review["checks"]["violations"]:
            self.say(f"  checker: {problem['text']}")
        self.api.post(self.event + f"rounds/{number}/publish/")
        tables = len(review["tables"])
        self.say(f"round {number} ({rnd['kind']}) published: {tables} table{'s' * (tables != 1)}")

    def advance_playoff(self) -> bool:
        """The play-off's next round (the worker may have drafted it already); False once the
        final is decided."""
        try:
            self.api.post(self.event + "playoff/advance/")
        except ApiError as exc:
            if exc.code == "playoff_round_draft":
                return True  # drafted by the worker: published on the next move
            if exc.code == "playoff_finished":
                return False
            raise
        return True

    def play(self, rnd: dict[str, Any]) -> None:
        """Start the round (its clock runs) and bring every table's result in."""
        number = rnd["number"]
        if rnd["status"] == "published":
            self.api.post(self.event + f"rounds/{number}/start/")
        links = self.api.get(self.event + f"rounds/{number}/links/")
        games = sum(self.play_table(table) for table in links)
        if games:
            self.say(f"round {number}: {games} games claimed and confirmed at the tables")

    def play_table(self, table: dict[str, Any]) -> int:
        """One table, from its links: the first side (or seat) claims, the others confirm
        that claim one by one until the result is confirmed (two sides: the other side; a
        table of three or four players: every other seat, or most of them, as the event's
        ``table_confirmation`` says), game after game (a best-of match opens its next game when
        one ends). Returns the games played."""
        links = [self.api.as_table(side["token"]) for side in table["sides"]]
        claimer, others = links[0], links[1:]
        many = len(links) > 2
        played = 0
        while True:
            try:
                mine = claimer.get("/api/table/")
            except ApiError as exc:
                if exc.code == "table_link_expired":
                    return played  # a play-off round closes itself with its last result
                raise
            match = mine["match"]
            if match is None or match["state"] == "confirmed":
                return played
            sheet = play_game(mine["game"], self.rng)
            claimed, answer = claimer.post(f"/api/matches/{match['id']}/claims/", {"sheet": sheet})
            if claimed["claim"]["status"] != "submitted":
                raise SystemExit(f"table {table['table']}: the sheet was refused: {claimed}")
            body = {"of_side": 0} if many else {}  # a seat says whose claim it confirms
            for other in others:
                confirmed, _ = other.post(
                    f"/api/matches/{match['id']}/confirm/", body, if_match=answer["ETag"]
                )
                if confirmed["match"]["state"] == "confirmed":
                    break  # a majority may suffice
            played += 1

    # The end.

    def report(self, finished: dict[str, Any]) -> None:
        print(f"Final placings of {self.slug}:")
        for place in finished["placings"]:
            shared = " (shared)" if place["shared"] else ""
            print(f"  {place['place']:>2}. {place['name']}{shared}")
        standings = self.api.get(self.event + "standings/")
        table = (standings.get("snapshot") or {}).get("standings") or {}
        rows = table.get("rows", [])
        print(f"Standings after the Swiss rounds (update {standings['generation']}):")
        for row in rows:
            print(f"  {row['rank']:>2}. {row['name']}: {row['match_points']} match points")


def own_players(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` individual entries of invented players (an event at tables of 3 or 4)."""
    names = rng.sample([f"{f} {chr(65 + i)}." for f in FIRST for i in range(8)], count)
    return [{"players": [{"name": name, "club": rng.choice(CLUBS)}]} for name in names]


def own_field(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` partnerships of invented players."""
    names = rng.sample([f"{f} {chr(65 + i)}." for f in FIRST for i in range(8)], 2 * count)
    return [
        {
            "players": [
                {"name": names[2 * i], "club": rng.choice(CLUBS)},
                {"name": names[2 * i + 1], "club": rng.choice(CLUBS)},
            ]
        }
        for i in range(count)
    ]


def demo_field(api: Api) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """The demo event's settings, name and partnerships (its players by id)."""
    demo = api.get("/api/events/demo/")
    settings = {k: v for k, v in demo.items() if k not in NOT_SETTINGS}
    entries = []
    for entry in api.pages("/api/events/demo/entries/"):
        players = [{"id": p["id"]} for p in entry["players"]]
        default = " & ".join(p["name"] for p in entry["players"])
        team = {"team": entry["name"]} if entry["name"] != default else {}
        entries.append({"players": players, **team})
    return settings, demo["name"], entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a director's API key")
    parser.add_argument("--slug", help="the new event's slug (default: api-<time>)")
    parser.add_argument("--demo", action="store_true", help="play the demo event's field")
    parser.add_argument("--entries", type=int, default=8, help="partnerships (default 8)")
    parser.add_argument(
        "--table-size",
        type=int,
        choices=[2, 3, 4],
        default=2,
        help="3 or 4: individual players at tables of many (default 2: partnerships)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the names and the games")
    parser.add_argument("--quiet", action="store_true", help="print the final placings only")
    args = parser.parse_args(argv)
    api = Api(args.base_url, f"Token {args.token}")
    slug = args.slug or f"api-{int(time.time())}"
    director = Director(api, slug, args.seed, args.quiet)
    if args.demo:
        settings, name, entries = demo_field(api)
        name = f"{name} (through the API)"
    else:
        settings = {
            "rules": "five-up",
            "format": "swiss",
            "swiss_rounds": 3,
            "playoff": "single",
            "playoff_qualifiers": 4,
            "round_minutes": 40,
            "tiebreaks": ["buchholz", "spread"],
        }
        name, entries = "API Club Night", own_field(args.entries, director.rng)
        if args.table_size > 2:  # individual players, seated by the Swiss at tables of many
            settings.update(entry_kind="single", table_size=args.table_size, playoff="none")
            settings.update(tiebreaks=[])  # the format's defaults
            name, entries = (
                f"API Tables of {args.table_size}",
                own_players(args.entries, director.rng),
            )
    try:
        director.create_event(settings, name)
        director.register(entries)
        director.report(director.run())
    except ApiError as exc:
        print(f"refused: {exc} {json.dumps(exc.details)[:500]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
