"""What the public standings pages show, built from the latest snapshot (read by the
selectors): the team page's context with its progression chart, and the standings CSV."""

from __future__ import annotations

import io
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from tournaments import csv_safety, game
from tournaments.models import Entry, Event
from tournaments.selectors import standings as selectors


def progress_chart(
    progress: list[list[Any]], rounds: list[int], *, width: int = 320, height: int = 160
) -> dict[str, Any]:
    """Coordinates for the inline SVG of an entry's match points after each round.

    ``progress`` is ``[[round, cumulative points as exact text], ...]``; ``rounds`` every counted
    round of the event (the x axis). Returns the polyline's points, the dots (with their labels)
    and the axis ticks, in a ``width`` x ``height`` box with margins for the labels.
    """
    left, right, top, bottom = 28, 10, 10, 24
    xs = sorted(set(rounds) | {int(r) for r, _ in progress}) or [1]
    values = [(int(r), Fraction(str(v))) for r, v in progress]
    top_value = max([v for _, v in values] + [Fraction(1)])
    span_x = max(len(xs) - 1, 1)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x_of(number: int) -> float:
        return round(left + plot_w * xs.index(number) / span_x, 1)

    def y_of(value: Fraction) -> float:
        return round(top + plot_h * (1 - float(value / top_value)), 1)

    dots = [{"x": x_of(r), "y": y_of(v), "round": r, "value": str(v)} for r, v in values]
    step = max(1, int(top_value) // 4) if top_value >= 4 else 1
    y_ticks = [{"y": y_of(Fraction(t)), "label": t} for t in range(0, int(top_value) + 1, step)]
    x_ticks = [{"x": x_of(r), "label": r} for r in xs]
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "bottom": height - bottom,
        "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "label_y": height - 6,
    }


def team_page(
    event: Event,
    entry: Entry,
    data: selectors.LiveStandings,
    *,
    history: Any,
    show_results: bool,
    show_chart: bool = True,
) -> dict[str, Any]:
    """The team page's context: the entry's row (place, values), its match history and the
    chart of its match points after each round."""
    row = selectors.standings_row(data, entry.pk)
    chart = (
        progress_chart(row["progress"], data.document.get("rounds", []))
        if row and show_chart
        else None
    )
    return {
        "event": event,
        "entry": entry,
        "row": row,
        "standings": data,
        "meta": data.meta,
        "history": history,
        "chart": chart,
        # Every tiebreak value after match points, labelled.
        "values": list(zip(data.columns[1:], row["values"][1:], strict=True)) if row else [],
        "show_results": show_results,
    }


def standings_csv(data: selectors.LiveStandings, event: Event) -> str:
    """The standings as CSV text: every row with every tiebreak value, game points in the
    event's displayed points (raw pips as extra ``*_raw`` columns); cells a spreadsheet would
    read as formulas are neutralised (``csv_safety``)."""
    buffer = io.StringIO()
    writer = csv_safety.writer(buffer, lineterminator="\n")
    writer.writerow(selectors.csv_header(data))
    writer.writerows(selectors.csv_rows(data, event))
    return buffer.getvalue()


def seat_names(seats: Any, seats_per_table: int) -> dict[int, str]:
    """Each seat number as people say it: the player's name and, for the position, the compass
    point ("Ann Lee (North)"); the compass point alone where the seat has no name."""
    names: dict[int, str] = {}
    for seat in seats:
        point = game.compass_point(seat.number, seats_per_table)
        names[seat.number] = f"{seat.player} ({point})" if seat.player else point
    return names


def many_seat_names(seats: list[dict[str, Any]]) -> dict[int, str]:
    """A table of many's seats (``selectors.matches.many_seats``) as people say them: the
    player's name and the compass point ("Ann Lee (East)")."""
    return {s["seat"]: f"{s['name']} ({game.compass_point(s['seat'], s['size'])})" for s in seats}


#: How a hand ended (the sheet's ``end``; ``in play`` before it ended), in words.
HAND_ENDS = {
    "domino": gettext_lazy("domino"),
    "blocked": gettext_lazy("blocked"),
    "in play": gettext_lazy("in play"),
}


def named_hands(
    hands: list[dict[str, Any]], seats: dict[int, str], entities: list[str]
) -> list[dict[str, Any]]:
    """The match page's hands with names: who led, who dominoed and who scored, by player (seat)
    or by team (entity), never "seat 0" or "side 1"."""

    def seat(value: Any) -> str:
        return (
            seats.get(
                value,
                gettext("the player at %(point)s")
                % {"point": game.compass_point(value, len(seats) or 4)},
            )
            if isinstance(value, int)
            else ""
        )

    def entity(value: Any) -> str:
        if isinstance(value, int) and 0 <= value < len(entities):
            return entities[value]
        return gettext("a team")

    named = []
    for hand in hands:
        scores = [
            {
                **s,
                "who": seat(s.get("seat"))
                if s.get("seat") is not None
                else entity(s.get("entity")),
            }
            for s in hand.get("scores", [])
        ]
        named.append(
            {
                **hand,
                "leader_name": seat(hand.get("leader")),
                "finisher_name": seat(hand.get("finisher")),
                "end_label": str(HAND_ENDS.get(str(hand.get("end")), hand.get("end"))),
                "scores": scores,
            }
        )
    return named
