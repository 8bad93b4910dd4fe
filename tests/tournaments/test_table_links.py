"""Table links: one per side of a table; derived, never stored, revocable, expiring with the
round, one table and one side only."""

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
    token = table_links.table_token(round_=rnd, table=table, side=1)
    round_id, number, side, mac = token.split(".")
    assert (int(round_id), int(number), int(side)) == (rnd.pk, 1, 1)
    assert len(base64.urlsafe_b64decode(mac + "=")) * 8 == 256
    again = table_links.table_token(round_=Round.objects.get(pk=rnd.pk), table=table, side=1)
    assert again == token
    other = Table.objects.get(event=rnd.event, number=2)
    assert table_links.table_token(round_=rnd, table=other, side=1) != token
    side_a = table_links.table_token(round_=rnd, table=table, side=0)
    assert side_a.split(".")[3] != mac  # each side has its own secret part
    with pytest.raises(ValueError):  # seats 2 and 3 exist at tables of many, no more
        table_links.table_token(round_=rnd, table=table, side=4)


def test_the_token_is_stored_nowhere() -> None:
    from django.db import connection

    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    macs = [table_links.table_token(round_=rnd, table=table, side=s).split(".")[3] for s in (0, 1)]
    with connection.cursor() as cursor:
        for model_table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{model_table}"')
            for row in cursor.fetchall():
                assert not any(m in str(value) for value in row for m in macs), model_table


@pytest.mark.parametrize("side", [0, 1])
def test_a_token_grants_its_own_table_match_and_side_only(side: int) -> None:
    rnd = make_round(make_event())
    t1 = Table.objects.get(event=rnd.event, number=1)
    access = table_links.resolve_table_token(
        table_links.table_token(round_=rnd, table=t1, side=side)
    )
    assert access.round.pk == rnd.pk and access.table.pk == t1.pk and access.side == side
    assert access.match_id == match_at(rnd, 1).pk
    assert access.may_act_on(match_at(rnd, 1))
    assert not access.may_act_on(match_at(rnd, 2))
    access.check_side(side)
    with pytest.raises(SpinnerError) as exc:
        access.check_side(1 - side)
    assert (exc.value.code, exc.value.status) == ("not_your_side", 403)
    other = table_links.resolve_table_token(
        table_links.table_token(round_=rnd, table=t1, side=1 - side)
    )
    assert other.scope != access.scope  # throttles and idempotency count per side link


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # one character off
        lambda t: ".".join([t.split(".")[0], "2", *t.split(".")[2:]]),  # another table, same mac
        lambda t: ".".join([*t.split(".")[:2], "1", t.split(".")[3]]),  # side A's mac, side B
        lambda t: ".".join([*t.split(".")[:2], "2", t.split(".")[3]]),  # no such side
        lambda t: ".".join([*t.split(".")[:2], t.split(".")[3]]),  # the table-wide format
        lambda t: "x" + t,
        lambda t: "",
        lambda t: t.rsplit(".", 1)[0] + ".short",
    ],
)
def test_forged_tokens_are_refused(mangle: object) -> None:
    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    token = table_links.table_token(round_=rnd, table=table, side=0)
    with pytest.raises(SpinnerError) as exc:
        table_links.resolve_table_token(mangle(token))  # type: ignore[operator]
    assert exc.value.code == "table_link_invalid"


def test_revoking_kills_every_link_of_the_round_and_new_ones_work() -> None:
    event = make_event()
    director = make_director(event)
    rnd = make_round(event)
    t1, t2 = (Table.objects.get(event=event, number=n) for n in (1, 2))
    old = [table_links.table_token(round_=rnd, table=t, side=s) for t in (t1, t2) for s in (0, 1)]
    with pytest.raises(SpinnerError):
        table_links.revoke_table_links(round_=rnd, actor=director, reason="")
    table_links.revoke_table_links(round_=rnd, actor=director, reason="A link was posted online")
    for token in old:
        with pytest.raises(SpinnerError) as exc:
            table_links.resolve_table_token(token)
        assert exc.value.code == "table_link_invalid"
    fresh = table_links.table_token(round_=Round.objects.get(pk=rnd.pk), table=t1, side=1)
    assert fresh != old[1]
    assert table_links.resolve_table_token(fresh).table.pk == t1.pk
    entry = AuditEntry.objects.get(action="table_links.revoke")
    assert entry.actor == director and entry.reason == "A link was posted online"


@pytest.mark.parametrize("status", [Round.Status.CLOSED, Round.Status.DRAFT])
def test_links_work_only_while_the_round_is_published_or_in_play(status: str) -> None:
    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    token = table_links.table_token(round_=rnd, table=table, side=0)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PUBLISHED)
    assert table_links.resolve_table_token(token).round.pk == rnd.pk
    Round.objects.filter(pk=rnd.pk).update(status=status)
    with pytest.raises(SpinnerError) as exc:
        table_links.resolve_table_token(token)
    assert exc.value.code == "table_link_expired"


def test_the_command_prints_a_sides_url_or_both_labelled(settings: object) -> None:
    settings.SPINNER_BASE_URL = "https://spinner.example.org/"  # type: ignore[attr-defined]
    event = make_event("open")
    rnd = make_round(event)
    table = Table.objects.get(event=event, number=2)
    match = match_at(rnd, 2)
    assert match.entry_b is not None
    urls = [
        f"https://spinner.example.org/t/{table_links.table_token(round_=rnd, table=table, side=s)}/"
        for s in (0, 1)
    ]
    for letter, url in (("A", urls[0]), ("b", urls[1])):
        out = io.StringIO()
        call_command("table_link", "open", "1", "2", "--side", letter, stdout=out)
        assert out.getvalue().strip() == url
    out = io.StringIO()
    call_command("table_link", "open", "1", "2", stdout=out)
    assert out.getvalue().splitlines() == [
        f"Side A ({match.entry_a.name}): {urls[0]}",
        f"Side B ({match.entry_b.name}): {urls[1]}",
    ]
    with pytest.raises(CommandError, match="Table 9"):
        call_command("table_link", "open", "1", "9", stdout=io.StringIO())
    with pytest.raises(CommandError, match="No round 4"):
        call_command("table_link", "open", "4", "1", stdout=io.StringIO())


def _weird_tokens(token: str) -> list[str]:
    round_id, number, side, mac = token.split(".")
    return [
        f"{round_id}.\u00b2.{side}.{mac}",  # "²".isdigit() is True, int("²") fails
        f"\u00b9.{number}.{side}.{mac}",
        f"{round_id}.\u0661.{side}.{mac}",  # an Arabic-Indic digit: int() takes it, the link not
        f"{round_id}.{number}.\u0660.{mac}",  # an Arabic-Indic zero as the side
        "9" * 5000 + f".{number}.{side}.{mac}",  # past Python's int-from-string limit
        f"{round_id}.{'9' * 5000}.{side}.{mac}",
        f"{round_id}.{number}.{side}.{mac}\n",
        f"{round_id}.{number}.{side}.{mac}A",  # one character too long
        f"{round_id}.{number}.0{side}.{mac}",  # the side is one digit
        f" {round_id}.{number}.{side}.{mac}",
    ]


def test_tokens_with_non_ascii_digits_or_huge_numbers_are_invalid_not_a_crash() -> None:
    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    token = table_links.table_token(round_=rnd, table=table, side=0)
    assert table_links.resolve_table_token(token).table.number == 1
    for weird in _weird_tokens(token):
        with pytest.raises(SpinnerError) as exc:
            table_links.resolve_table_token(weird)
        assert exc.value.code == "table_link_invalid", weird[:40]


def test_a_12_digit_round_id_is_simply_unknown() -> None:
    rnd = make_round(make_event())
    mac = table_links.table_token(
        round_=rnd, table=Table.objects.get(event=rnd.event, number=1), side=0
    ).split(".")[3]
    with pytest.raises(SpinnerError) as exc:
        table_links.resolve_table_token(f"{'9' * 12}.1.0.{mac}")
    assert exc.value.code == "table_link_invalid"


def test_weird_tokens_get_401_on_the_page_and_in_the_api() -> None:
    from django.test import Client

    from tests.tournaments.api_support import assert_error

    rnd = make_round(make_event())
    table = Table.objects.get(event=rnd.event, number=1)
    token = table_links.table_token(round_=rnd, table=table, side=1)
    for weird in _weird_tokens(token):
        if weird.strip() != weird:
            continue  # the header's words are split on blanks; the URL carries none
        page = Client().get(f"/t/{weird}/")
        assert page.status_code == 401, (weird[:40], page.status_code)
        # What a WSGI server hands over: the header's UTF-8 bytes read as latin-1.
        header = f"Table {weird}".encode().decode("latin-1")
        api = Client().get("/api/table/", HTTP_AUTHORIZATION=header)
        assert_error(api, 401, "table_link_invalid")
