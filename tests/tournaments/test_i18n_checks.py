"""Issue 18: the checker's findings on the director's round page, in the reader's language. The
checkers (no Django) give each violation a template and arguments beside its English message;
the review page and the swap preview show the violations and the director's overrides in
Spanish for a Spanish reader, in English by default (as the English lines always read); the
``check_pairings`` command and the export keep the English; the draws' purposes are named."""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from tests.tournaments import i18n_support
from tests.tournaments.rounds_factory import (
    make_director,
    make_event,
    make_field,
    settle_round,
)
from tournaments.models import Event, Match, Round, RoundSeat
from tournaments.pairing import EntryRecord, PastMatch, check_round
from tournaments.pairing.export import violation_to_dict
from tournaments.pairing.records import Bye, Explanation, Pairing, RoundPairing, Violation
from tournaments.selectors import rounds as selectors
from tournaments.services import round_edits, round_generation, round_status

pytestmark = pytest.mark.django_db

SPANISH = "es-ES,es;q=0.9"
WHY = Explanation(method="manual", reason="test")
CHECKER_MODULES = (
    "tournaments/pairing/violations.py",
    "tournaments/pairing/checker.py",
    "tournaments/pairing/check_tables.py",
    "tournaments/pairing/draw.py",
    "tournaments/selectors/pairing_reasons.py",
    "tournaments/selectors/rounds.py",
)


@pytest.fixture(scope="module", autouse=True)
def _spanish_catalog() -> Iterator[None]:
    i18n_support.compile_catalog()
    yield


_ENTRY_ID = re.compile(r"\bentry (\d+)|\bentries (\d+) and (\d+)")


def english_line(violation: Violation, names: dict[int, str]) -> str:
    """How the page wrote a violation before the templates: the English line with the entries
    named by reading their ids out of the text (the reference the English page must keep)."""

    def named(match: re.Match[str]) -> str:
        if match.group(1):
            n = int(match.group(1))
            return f"entry {n} ({names.get(n, '?')})"
        a, b = int(match.group(2)), int(match.group(3))
        return f"entries {a} ({names.get(a, '?')}) and {b} ({names.get(b, '?')})"

    return _ENTRY_ID.sub(named, selectors.violation_line(violation))


def checks(html: str) -> tuple[list[str], list[str]]:
    """The violation lines and the override lines of the review page's "Checks" section."""
    section = html.split('aria-labelledby="checks"', 1)[1].split("</section>", 1)[0]

    def items(css: str) -> list[str]:
        if f'class="{css}' not in section:
            return []
        body = section.split(f'class="{css}', 1)[1].split("</ul>", 1)[0]
        return [
            " ".join(i18n_support.visible_text(li.split("</li>")[0]).split())
            for li in body.split("<li>")[1:]
        ]

    return items("conflicts"), items("overrides")


def page(event: Event, number: int, language: str | None = None, path: str = "") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if language else Client()
    client.force_login(event.directors.get())
    response = client.get(f"/director/events/{event.slug}/rounds/{number}/{path}")
    assert response.status_code == 200
    return str(response.content.decode())


def rematch_swapped_round(event: Event) -> tuple[Round, int, int]:
    """Round 1 played, round 2 drafted, and a director's swap (reason "family") that makes a
    rematch at table 1; returns round 2 and the two entries swapped."""
    boss = make_director(event)
    make_field(event, 6)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = round_generation.generate_round(event=event, actor=boss)
    m1 = second.matches.get(table__number=1)
    old = RoundSeat.objects.select_related("match").get(round=first, entry_id=m1.entry_a_id).match
    former = old.entry_b_id if old.entry_a_id == m1.entry_a_id else old.entry_a_id
    assert former is not None and m1.entry_b_id is not None
    round_edits.swap_entries(
        round=second, entry_x=m1.entry_b_id, entry_y=former, reason="family", actor=boss
    )
    return second, m1.entry_b_id, former


def drop_a_table(rnd: Round, keep: set[int]) -> list[int]:
    """Delete a match none of whose entries is in ``keep``: its two entries go missing."""
    for m in rnd.matches.all():
        if {m.entry_a_id, m.entry_b_id}.isdisjoint(keep):
            Match.objects.filter(pk=m.pk).delete()
            return sorted(e for e in (m.entry_a_id, m.entry_b_id) if e is not None)
    raise AssertionError("every table holds a swapped entry")


def test_violations_and_overrides_in_spanish_english_by_default() -> None:
    event = make_event("revisar")
    second, x, y = rematch_swapped_round(event)
    missing = drop_a_table(second, {x, y})
    # the page names the entries of the round (a missing one is "?")
    names = {e.entry_id: e.name for e in selectors.round_view(second).entries}
    findings = selectors.round_conflicts(second)
    assert {v.code for v in findings if v.is_violation} == {"missing"}
    assert any(v.code == "override" and "rematch" in v.message for v in findings)

    violations, overrides = checks(page(event, 2, SPANISH))
    assert sorted(violations) == sorted(
        f"ronda 2: ausente — el inscrito activo {e} ({names.get(e, '?')}) no está en la ronda"
        for e in missing
    )
    rematch = [line for line in overrides if "revancha:" in line]
    assert rematch, overrides
    for line in rematch:
        assert re.fullmatch(
            r"ronda 2, mesa \d+: excepción del director — revancha: los inscritos \d+ \(.+\) y "
            r"\d+ \(.+\) ya se enfrentaron \(jugadores \d+ y \d+, ronda 1\); la ronda tiene \d+ "
            r"revancha\(s\) y con estos inscritos bastan \d+ \(director: family\)",
            line,
        ), line
        assert "entries" not in line and "have met" not in line

    # English by default: exactly the lines the page always showed.
    violations, overrides = checks(page(event, 2))
    assert sorted(violations) == sorted(english_line(v, names) for v in findings if v.is_violation)
    assert sorted(overrides) == sorted(
        english_line(v, names) for v in findings if not v.is_violation
    )
    assert any(
        line.startswith("round 2 table ") and ": override rematch: entries " in line
        for line in overrides
    )


def test_a_swap_is_told_in_the_readers_language_under_its_table() -> None:
    """The line under a swapped table ("Override by …: swapped A and B — “reason”") says the
    swap in the page's language; the stored English stays for the export."""
    event = make_event("cambio")
    second, _, _ = rematch_swapped_round(event)
    spanish = page(event, 2, SPANISH)
    lines = re.findall(r'<p class="override">(.*?)</p>', spanish, re.S)
    assert lines and all("se intercambiaron" in line for line in lines), lines
    assert not any("swapped" in line for line in lines)
    english = page(event, 2)
    assert re.search(r'<p class="override">[^<]*swapped ', english)
    stored = [o for m in second.matches.all() for o in (m.explanation or {}).get("overrides", [])]
    assert stored and all(o["what"].startswith("swapped ") for o in stored)


def test_the_swap_preview_in_spanish_and_english() -> None:
    event = make_event("vista")
    boss = make_director(event)
    make_field(event, 6)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = round_generation.generate_round(event=event, actor=boss)
    m1 = second.matches.get(table__number=1)
    old = RoundSeat.objects.select_related("match").get(round=first, entry_id=m1.entry_a_id).match
    former = old.entry_b_id if old.entry_a_id == m1.entry_a_id else old.entry_a_id
    query = f"swap-preview/?entry_x={m1.entry_b_id}&entry_y={former}"
    spanish = " ".join(i18n_support.visible_text(page(event, 2, SPANISH, query)).split())
    assert "revancha — los inscritos" in spanish and "ya se enfrentaron" in spanish
    assert "have met" not in spanish
    english = " ".join(i18n_support.visible_text(page(event, 2, None, query)).split())
    assert ": rematch entries " in english and "have met" in english


def test_check_pairings_stays_english_whatever_the_language() -> None:
    event = make_event("mando")
    second, x, y = rematch_swapped_round(event)
    missing = drop_a_table(second, {x, y})
    findings = selectors.round_conflicts(second)
    for language in ("en", "es"):
        out, err = StringIO(), StringIO()
        with translation.override(language), pytest.raises(SystemExit) as exit_:
            call_command("check_pairings", event.slug, "2", stdout=out, stderr=err)
        assert exit_.value.code == 1
        lines = out.getvalue().splitlines()
        assert lines == [selectors.violation_line(v) for v in findings]
        for e in missing:
            assert f"round 2: missing active entry {e} is not in the round" in lines
        assert any(
            re.fullmatch(
                r"round 2 table \d+: override rematch: entries \d+ and \d+ have met \(players "
                r"\d+ and \d+, round 1\); the round has \d+ rematch\(es\), the field needs \d+ "
                r"\(director: family\)",
                line,
            )
            for line in lines
        ), lines
        assert err.getvalue().startswith("1 round checked: ")


def test_the_checker_keeps_its_english_message_beside_the_template() -> None:
    """Every finding of the pure checker: ``message`` is the template filled in English, an
    override wraps it with the rule and the director's words; the export keeps the message."""
    entries = [EntryRecord(i, frozenset({i})) for i in range(1, 6)] + [
        EntryRecord(6, frozenset({6}), active=False),
        EntryRecord(7, frozenset({7}), pinned_table=3),
    ]
    history = [PastMatch(1, 1, frozenset({1}), 2, frozenset({2}))]
    planted = RoundPairing(
        2,
        "swiss",
        (
            Pairing(1, 1, 2, WHY),
            Pairing(1, 3, 3, WHY),
            Pairing(2, 4, 6, WHY, override="sat out, back now"),
            Pairing(4, 7, 99, WHY),
        ),
        byes=(Bye(4, WHY), Bye(5, WHY)),
    )
    found = check_round(planted, entries, history)
    codes = {v.code for v in found}
    assert {"table", "self_pairing", "unknown_entry", "duplicate", "pin", "override"} <= codes
    for v in found:
        assert v.detail is not None, v
        if v.override is None:
            assert v.message == v.detail.text
        else:
            wrap = dict(v.override.args)
            assert v.message == f"{wrap['rule']}: {v.detail.text} (director: {wrap['reason']})"
            assert wrap["reason"] == "sat out, back now"
        assert violation_to_dict(v)["message"] == v.message
    duplicate = next(v for v in found if v.code == "duplicate" and v.table is None)
    assert duplicate.message == "entry 4 has a bye and is at table 2"


def test_every_checker_message_is_translated_with_the_same_placeholders() -> None:
    entries = i18n_support.catalog_entries()
    mine = [e for e in entries if any(r in CHECKER_MODULES for r in e.references)]
    assert len(mine) >= 70
    placeholder = re.compile(r"%\((\w+)\)s")
    with translation.override("es"):
        for e in mine:
            assert e.translated, e.message
            context, msgid = e.message.context, e.message.msgid
            spanish = (
                translation.pgettext(context, msgid) if context else translation.gettext(msgid)
            )
            assert set(placeholder.findall(spanish)) == set(placeholder.findall(msgid)), msgid


def test_the_draw_purposes_are_named_in_the_readers_language() -> None:
    event = make_event("sorteo")
    boss = make_director(event)
    make_field(event, 6)
    rnd = round_generation.generate_round(event=event, actor=boss)
    purposes = {d["purpose"] for d in rnd.explanation["draws"]}
    assert "first-round" in purposes
    spanish = page(event, 1, SPANISH)
    assert 'title="first-round">orden de la primera ronda</span>' in spanish
    english = page(event, 1)
    assert 'title="first-round">first-round order</span>' in english
    if "first-leader" in purposes:
        assert ">quién sale primero</span>" in spanish and ">who leads first</span>" in english
