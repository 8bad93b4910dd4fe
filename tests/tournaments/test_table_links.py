"""Table links: derived, never stored, revocable, expiring with the round, one table only."""

from __future__ import annotations

import base64
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.tournaments.results_support import make_director, make_event, make_round, match_at
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Round, Table
from tournaments.services import table_links

pytestmark = pytest.mark.django_db


def test_a_token_has_256_secret_bits_and_prints_the_same_twice() -> None:
    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    token = table_links.table_token(round_=rnd, table=table)
    round_id, number, mac = token.split(".")
    assert (int(round_id), int(number)) == (rnd.pk, 1)
    assert len(base64.urlsafe_b64decode(mac + "=")) * 8 == 256
    assert table_links.table_token(round_=Round.objects.get(pk=rnd.pk), table=table) == token
    other = Table.objects.get(event=rnd.event, number=2)
    assert table_links.table_token(round_=rnd, table=other) != token


def test_the_token_is_stored_nowhere() -> None:
    from django.db import connection

    rnd = make_round(make_event())
    token = table_links.table_token(round_=rnd, table=Table.objects.get(event=rnd.event, number=1))
    mac = token.split(".")[2]
    with connection.cursor() as cursor:
        for model_table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{model_table}"')
            for row in cursor.fetchall():
                assert not any(mac in str(value) for value in row), model_table


def test_a_token_grants_its_own_table_and_match_only() -> None:
    rnd = make_round(make_event())
    t1 = Table.objects.get(event=rnd.event, number=1)
    access = table_links.resolve_table_token(table_links.table_token(round_=rnd, table=t1))
    assert access.round.pk == rnd.pk and access.table.pk == t1.pk
    assert access.match_id == match_at(rnd, 1).pk
    assert access.may_act_on(match_at(rnd, 1))
    assert not access.may_act_on(match_at(rnd, 2))


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # one character off
        lambda t: t.split(".")[0] + ".2." + t.split(".")[2],  # another table, same mac
        lambda t: "x" + t,
        lambda t: "",
        lambda t: t.rsplit(".", 1)[0] + ".short",
    ],
)
def test_forged_tokens_are_refused(mangle: object) -> None:
    rnd = make_round(make_event())
    token = table_links.table_token(round_=rnd, table=Table.objects.get(event=rnd.event, number=1))
    with pytest.raises(SpinnerError) as exc:
        table_links.resolve_table_token(mangle(token))  # type: ignore[operator]
    assert exc.value.code == "table_link_invalid"


def test_revoking_kills_every_link_of_the_round_and_new_ones_work() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    t1, t2 = (Table.objects.get(event=event, number=n) for n in (1, 2))
    old = [table_links.table_token(round_=rnd, table=t) for t in (t1, t2)]
    with pytest.raises(SpinnerError):
        table_links.revoke_table_links(round_=rnd, actor=director, reason="")
    table_links.revoke_table_links(round_=rnd, actor=director, reason="A link was posted online")
    for token in old:
        with pytest.raises(SpinnerError) as exc:
            table_links.resolve_table_token(token)
        assert exc.value.code == "table_link_invalid"
    fresh = table_links.table_token(round_=Round.objects.get(pk=rnd.pk), table=t1)
    assert fresh != old[0]
    assert table_links.resolve_table_token(fresh).table.pk == t1.pk
    entry = AuditEntry.objects.get(action="table_links.revoke")
    assert entry.actor == director and entry.reason == "A link was posted online"


@pytest.mark.parametrize("status", [Round.Status.CLOSED, Round.Status.DRAFT])
def test_links_work_only_while_the_round_is_published_or_in_play(status: str) -> None:
    rnd = make_round(make_event())
    token = table_links.table_token(round_=rnd, table=Table.objects.get(event=rnd.event, number=1))
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PUBLISHED)
    assert table_links.resolve_table_token(token).round.pk == rnd.pk
    Round.objects.filter(pk=rnd.pk).update(status=status)
    with pytest.raises(SpinnerError) as exc:
        table_links.resolve_table_token(token)
    assert exc.value.code == "table_link_expired"


def test_the_command_prints_the_tables_url(settings: object) -> None:
    settings.SPINNER_BASE_URL = "https://spinner.example.org/"  # type: ignore[attr-defined]
    event = make_event("open")
    rnd = make_round(event)
    out = io.StringIO()
    call_command("table_link", "open", "1", "2", stdout=out)
    url = out.getvalue().strip()
    token = table_links.table_token(round_=rnd, table=Table.objects.get(event=event, number=2))
    assert url == f"https://spinner.example.org/t/{token}/"
    with pytest.raises(CommandError, match="Table 9"):
        call_command("table_link", "open", "1", "9", stdout=io.StringIO())
    with pytest.raises(CommandError, match="No round 4"):
        call_command("table_link", "open", "4", "1", stdout=io.StringIO())
