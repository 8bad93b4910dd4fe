"""Issue 18: why each pairing was made, in the reader's language. The pairing package (no Django)
writes every reason as templates and arguments beside its English sentence; the director's round
page shows them in Spanish for a Spanish reader (Swiss, first round, round robin, byes, the
round's notes), in English by default; a round stored before the templates shows its English
sentence; the export keeps the English."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests.tournaments import i18n_support
from tests.tournaments.rounds_factory import (
    make_director,
    make_entry,
    make_event,
    make_field,
    settle_round,
)
from tournaments.models import Event, Match, Round
from tournaments.pairing import EntryRecord, pair_first_round, pair_round_robin, pair_swiss
from tournaments.pairing.export import round_to_dict
from tournaments.pairing.reasons import Reason, reason, sentence
from tournaments.pairing.swiss import SwissOptions
from tournaments.selectors.pairing_reasons import match_reason, translated
from tournaments.services import round_generation

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def _spanish_catalog() -> Iterator[None]:
    i18n_support.compile_catalog()
    yield


def review(event: Event, rnd: Round, language: str | None = None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if language else Client()
    client.force_login(event.directors.get())
    response = client.get(f"/director/events/{event.slug}/rounds/{rnd.number}/")
    assert response.status_code == 200
    return str(response.content.decode())


def why_lines(html: str) -> list[str]:
    """The text of every "why" line (tables and byes) and every note of the round page."""
    text = i18n_support.visible_text(html)
    start = html.find('class="why"')
    assert start != -1, "no why line on the page"
    lines = []
    for chunk in html.split('<p class="why">')[1:]:
        lines.append(" ".join(i18n_support.visible_text(chunk.split("</p>")[0]).split()))
    assert lines and text
    return lines


def stored_reasons(rnd: Round) -> list[str]:
    return [str(m.explanation["reason"]) for m in rnd.matches.all()]


def assert_spanish(event: Event, rnd: Round, *expected: str) -> str:
    english = stored_reasons(rnd)
    html = review(event, rnd, "es-ES,es;q=0.9")
    lines = why_lines(html)
    for words in expected:
        assert any(words in line for line in lines), (words, lines)
    for sentence_en in english:
        assert sentence_en not in html, sentence_en
    # English by default: the stored sentences, exactly.
    default = review(event, rnd)
    for sentence_en in english:
        assert sentence_en in default.replace("&#x27;", "'"), sentence_en
    return html


def test_a_first_round_and_its_bye_in_spanish_english_by_default() -> None:
    event = make_event("primera")
    make_director(event)
    make_field(event, 5)
    rnd = round_generation.generate_round(event=event, actor=event.directors.get())
    assert_spanish(
        event,
        rnd,
        "orden del sorteo: puesto 1 contra puesto 3",
        "número impar de inscritos: último en el orden del sorteo (5 de 5)",
    )


def test_a_seeded_first_round_names_its_order_in_spanish() -> None:
    event = make_event("sembrado", first_round="seed")
    make_director(event)
    for s in range(1, 5):
        make_entry(event, f"Seed {s}", seed=s)
    rnd = round_generation.generate_round(event=event, actor=event.directors.get())
    assert_spanish(event, rnd, "orden de cabezas de serie: puesto 2 contra puesto 4")


def test_a_swiss_round_its_bye_and_its_notes_in_spanish() -> None:
    event = make_event("suizo", swiss_rounds=3)
    boss = make_director(event)
    make_field(event, 7)
    first = round_generation.generate_round(event=event, actor=boss)
    round_generation_publish_and_settle(first, boss)
    second = round_generation.generate_round(event=event, actor=boss)
    assert second.explanation["note_parts"], "the round's notes as templates"
    html = assert_spanish(event, second, "grupo de puntuación 2: puestos", "número impar")
    assert "sin revanchas; candidatos a" in html
    assert "rematch-free; candidates" not in html
    assert "rematch-free; candidates within" in review(event, second)


def round_generation_publish_and_settle(rnd: Round, boss: Any) -> None:
    from tournaments.services import round_status

    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)


def test_a_round_robin_round_and_its_bye_in_spanish() -> None:
    event = make_event("liga", format=Event.Format.ROUND_ROBIN)
    make_director(event)
    make_field(event, 5)
    rnd = round_generation.generate_round(event=event, actor=event.directors.get())
    assert rnd.kind == Round.Kind.ROUND_ROBIN
    assert_spanish(
        event,
        rnd,
        "método del círculo, ronda 1 de 5",
        "sin rival en el círculo esta ronda (ronda 1 de 5)",
    )


def test_a_round_stored_before_the_templates_shows_its_english_reasons() -> None:
    event = make_event("antigua")
    make_director(event)
    make_field(event, 5)
    rnd = round_generation.generate_round(event=event, actor=event.directors.get())
    for match in rnd.matches.all():
        match.explanation = {k: v for k, v in match.explanation.items() if k != "reason_parts"}
        match.save(update_fields=["explanation"])
    english = stored_reasons(rnd)
    html = review(event, rnd, "es").replace("&#x27;", "'")
    assert all(line in html for line in english)
    # A stored part that does not read back (hand-edited JSON) falls back too, never breaks.
    match = rnd.matches.first()
    assert match is not None
    broken = {**match.explanation, "reason_parts": [{"template": 3}]}
    with translation.override("es"):
        assert match_reason(broken) == match.explanation["reason"]


def test_parts_that_do_not_fill_their_template_fall_back_to_the_english() -> None:
    part = reason("score group %(group)s: ranks %(high)s and %(low)s", group=2, high=1, low=2)
    with translation.override("es"):
        assert translated(part) == "grupo de puntuación 2: puestos 1 y 2"
        # An argument missing from the stored JSON: the stored English sentence, not an error.
        short = Reason(part.template, (("group", 2),))
        stored = {"reason": part.text, "reason_parts": [short.to_dict()]}
        assert match_reason(stored) == "score group 2: ranks 1 and 2"


def records(n: int, **fields: Any) -> list[EntryRecord]:
    return [
        EntryRecord(i, frozenset({100 + i}), **{k: v(i) for k, v in fields.items()})
        for i in range(1, n + 1)
    ]


def test_the_english_sentence_is_the_template_filled_and_the_export_keeps_it() -> None:
    # Half match points: a Fraction argument is written exactly, as the f-strings did.
    field = records(5, match_points=lambda i: Fraction(7 - i, 2))
    rp = pair_swiss(field, [], round_no=2, salt="s", options=SwissOptions(mp_scale=2))
    for p in (*rp.pairings, *rp.byes):
        why = p.explanation
        assert why.reason_parts and why.reason == sentence(why.reason_parts)
    assert rp.notes == tuple(n.text for n in rp.note_parts)
    doc = round_to_dict(rp)
    first = doc["pairings"][0]["why"]
    assert first["reason"] == "rank 2 (5/2 mp) paired up 1/2 against rank 1 (3 mp)"
    assert first["reason_parts"] == [
        {
            "template": "rank %(low)s (%(low_mp)s mp) paired up %(diff)s against rank %(high)s "
            "(%(high_mp)s mp)",
            "args": {"diff": "1/2", "high": 1, "high_mp": 3, "low": 2, "low_mp": "5/2"},
        }
    ]
    assert doc["byes"][0]["why"]["reason"].startswith("odd field: lowest-ranked active entry")
    first_round = pair_first_round(records(4), salt="s", method="rating")
    assert first_round.pairings[0].explanation.reason == "rating order: place 1 against place 3"
    circle = pair_round_robin(records(3), round_no=1, salt="s")
    assert circle.byes[0].explanation.reason.startswith("no opponent in the circle this round")
    assert circle.pairings[0].explanation.reason == "circle method, round 1 of 3"


def test_the_stored_round_keeps_the_english_reason_beside_its_parts() -> None:
    event = make_event("datos")
    make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=event.directors.get())
    for match in Match.objects.filter(round=rnd):
        data = match.explanation
        assert data["reason"].startswith("random order: place")
        assert data["reason_parts"][0]["args"]["order"] == "random order"
