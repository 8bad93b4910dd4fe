"""What a table's claim, confirmation and status read cost (issue 17: cheaper writes): their
queries are pinned, and every shortcut taken for them gives what the longer way gave.

- the statements of a claim, a confirmation and the status reads, on SQLite and PostgreSQL;
- a write's answer (the match from the rows the write read under its lock) equals a fresh read
  of the match;
- the claims and results written out directly (``api/claim_data.py``) equal the serializers';
- the sheet checks' faster walks refuse and accept what the plain walks did (random JSON trees);
- the standings' kept records are frozen out of the collector after a computation from scratch,
  and unfrozen when an event is dropped.

Speed itself is measured in ``benchmarks/load/writes.py`` (RESULTS.md), never here.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.api_support import post, private_cache, table_client, user_client
from tests.tournaments.results_support import (
    make_director,
    make_event,
    make_round,
    match_at,
    sheet,
)
from tournaments.api.claim_data import claim_data, result_data
from tournaments.api.serializers import ClaimOutputSerializer, ResultOutputSerializer
from tournaments.errors import ValidationFailed
from tournaments.models import Claim, Match, MatchResult, Round, Table
from tournaments.selectors import standings_records
from tournaments.services import assessment
from tournaments.services.results import lock_match
from tournaments.services.table_links import resolve_table_token, table_token
from tournaments.text_safety import (
    MAX_DEPTH,
    TooDeep,
    find_unstorable,
    json_depth_exceeds,
    may_hold_unstorable,
)

pytestmark = pytest.mark.django_db

# The statements each request sends (BEGIN, SAVEPOINT and their ends included). A table's
# claim: its token (round with event; table with its match), its match, the idempotency key,
# the lock, the claims, the result, the claim, the audit entry, the key's answer. A
# confirmation adds the result, its audit entry, the standings' mark, the event's webhooks and
# the re-rating mark (read and updated).
CLAIM = 19
CONFIRMATION = 27
STATUS_FRAGMENT = 5  # the phone's poll: token (2: its match with it), the match's board (3)
MATCH_READ = 5  # GET /api/matches/<id>/: token (2: its match with it), the board (3)


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


def _confirm_table(rnd: Round, number: int) -> None:
    """Table ``number`` claims and confirms (the event's standings mark and re-rating mark
    exist from then on, as during an event)."""
    match = match_at(rnd, number)
    url = f"/api/matches/{match.pk}/claims/"
    assert (
        post(table_client(rnd, number), url, {"side": 0, "sheet": sheet("tally")}).status_code
        == 201
    )
    confirm_url = f"/api/matches/{match.pk}/confirm/"
    confirmed = post(table_client(rnd, number, side=1), confirm_url, {"side": 1}, If_Match='"1"')
    assert confirmed.status_code == 201, confirmed.content


def test_a_claim_a_confirmation_and_the_status_reads_send_a_fixed_number_of_queries(
    django_assert_num_queries: Any,
) -> None:
    rnd = make_round(make_event(), tables=2)
    _confirm_table(rnd, 2)
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    with django_assert_num_queries(CLAIM):
        claim = post(
            side_a, f"/api/matches/{match.pk}/claims/", {"side": 0, "sheet": sheet("tally")}
        )
    assert claim.status_code == 201, claim.content
    token = table_token(round_=rnd, table=Table.objects.get(pk=match.table_id), side=1)
    with django_assert_num_queries(STATUS_FRAGMENT):
        status = side_b.get(f"/t/{token}/status")
    assert status.status_code == 200
    with django_assert_num_queries(MATCH_READ):
        read = side_b.get(f"/api/matches/{match.pk}/")
    assert read.status_code == 200 and read.json()["state"] == "pending"
    with django_assert_num_queries(CONFIRMATION):
        confirm = post(side_b, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match='"1"')
    assert confirm.status_code == 201, confirm.content
    assert MatchResult.objects.filter(match=match, is_current=True).count() == 1


def test_the_query_counts_do_not_grow_with_the_tables_drafts_or_results(
    django_assert_num_queries: Any,
) -> None:
    rnd = make_round(make_event(), tables=6)
    for number in range(2, 7):  # the other tables confirmed first
        _confirm_table(rnd, number)
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    url = f"/api/matches/{match.pk}/claims/"
    for version, name in enumerate(("progress", "tally-mut"), start=1):
        previous = {"If_Match": f'"{version - 1}"'} if version > 1 else {}
        assert post(side_a, url, {"side": 0, "sheet": sheet(name)}, **previous).status_code == 201
    with django_assert_num_queries(CLAIM + 1):  # and the drafts' count (a new draft's cap)
        draft = post(side_a, url, {"side": 0, "sheet": sheet("progress")}, If_Match='"2"')
    assert draft.status_code == 201, draft.content
    with django_assert_num_queries(CLAIM):
        claim = post(side_a, url, {"side": 0, "sheet": sheet("tally")}, If_Match='"3"')
    assert claim.status_code == 201, claim.content
    with django_assert_num_queries(CONFIRMATION):
        confirm = post(side_b, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match='"4"')
    assert confirm.status_code == 201, confirm.content


@pytest.mark.parametrize("zone", ["UTC", "America/Argentina/Buenos_Aires"])
def test_a_writes_answer_is_the_match_as_a_fresh_read_shows_it(zone: str) -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    url = f"/api/matches/{match.pk}/claims/"
    confirm_url = f"/api/matches/{match.pk}/confirm/"
    steps: list[tuple[Any, str, dict[str, Any], dict[str, str]]] = [
        (side_a, url, {"side": 0, "sheet": sheet("progress")}, {}),  # a draft
        (side_a, url, {"side": 0, "sheet": sheet("tally-mut")}, {"If_Match": '"1"'}),
        (side_a, url, {"side": 0, "sheet": sheet("tally")}, {"If_Match": '"2"'}),
        (side_a, url, {"side": 0, "sheet": sheet("tally")}, {"If_Match": '"3"'}),  # the same
        (side_b, confirm_url, {"side": 1}, {"If_Match": '"3"'}),
        (side_b, confirm_url, {"side": 1}, {"If_Match": '"3"'}),  # confirmed already
    ]
    answers = []
    with timezone.override(zone):
        for client, path, body, headers in steps:
            answer = post(client, path, body, **headers)
            assert answer.status_code in (200, 201), answer.content
            fresh = side_a.get(f"/api/matches/{match.pk}/").json()
            assert answer.json()["match"] == fresh
            answers.append(answer)
    assert [a.status_code for a in answers] == [201, 201, 201, 200, 201, 200]
    assert answers[-1].json()["match"]["state"] == "confirmed"


def test_the_lock_reads_the_match_row_alone_and_keeps_only_the_rows_it_still_points_at(
    django_assert_num_queries: Any,
) -> None:
    rnd = make_round(make_event(), tables=2)
    access = resolve_table_token(table_token(round_=rnd, table=match_at(rnd, 1).table, side=0))
    match = access.match
    assert match is not None and match.pk == match_at(rnd, 1).pk
    other = match_at(rnd, 2)
    # re-paired between the token's read and the lock: entry_b is another entry now
    Match.objects.filter(pk=match.pk).update(entry_b=other.entry_a)
    with django_assert_num_queries(1):  # the match row, locked; the round, event, table kept
        locked = lock_match(match)
        assert locked.round is access.round and locked.round.event is access.round.event
        assert locked.table is match.table and locked.entry_a is match.entry_a
    with django_assert_num_queries(1):  # the entry it points at now, read when first used
        assert locked.entry_b == other.entry_a
    read_bare = Match.objects.get(pk=other.pk)
    with django_assert_num_queries(1):  # a match read bare: one query with all its rows
        bare = lock_match(read_bare)
        assert (bare.round.event.slug, bare.table.number) == ("ev", 2)
        assert bare.entry_b is not None and bare.entry_b.pk == other.entry_b_id


def test_a_conflict_answer_shows_the_divergence_a_fresh_read_shows() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    url = f"/api/matches/{match.pk}/claims/"
    post(side_a, url, {"side": 0, "sheet": sheet("tally")})
    answer = post(side_b, url, {"side": 1, "sheet": sheet("time")})
    assert answer.status_code == 201, answer.content
    assert answer.json()["match"]["state"] == "conflict"
    assert answer.json()["match"] == side_a.get(f"/api/matches/{match.pk}/").json()


@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid"])
def test_claims_and_results_written_out_directly_equal_the_serializers(zone: str) -> None:
    event = make_event(allow_final_score_only=True)
    director = make_director(event)
    rnd = make_round(event, tables=3)
    boss = user_client(director)
    first, second, third = (match_at(rnd, n) for n in (1, 2, 3))
    side_a = table_client(rnd, 1, side=0)
    url = f"/api/matches/{first.pk}/claims/"
    post(side_a, url, {"side": 0, "sheet": sheet("progress")})
    post(side_a, url, {"side": 0, "sheet": sheet("tally-mut")}, If_Match='"1"')
    mismatch = {**sheet("tally"), "target": 250}
    post(side_a, url, {"side": 0, "sheet": mismatch}, If_Match='"2"')
    post(side_a, url, {"side": 0, "sheet": sheet("tally")}, If_Match='"3"')
    post(
        table_client(rnd, 1, side=1),
        f"/api/matches/{first.pk}/confirm/",
        {"side": 1},
        If_Match='"4"',
    )
    post(
        table_client(rnd, 2),
        f"/api/matches/{second.pk}/claims/",
        {"side": 0, "final_score": {"scores": [100, 70]}},
    )
    override = post(
        boss,
        f"/api/matches/{third.pk}/override/",
        {"final_score": {"scores": [60, 100]}, "reason": "paper acta"},
    )
    assert override.status_code in (200, 201), override.content
    claims = list(Claim.objects.order_by("pk"))
    results = list(MatchResult.objects.order_by("pk"))
    assert {c.status for c in claims} >= {"draft", "submitted"}
    assert {c.kind for c in claims} == {"sheet", "final_score"}
    assert len(results) == 2
    with timezone.override(zone):
        for claim in claims:
            assert claim_data(claim) == ClaimOutputSerializer(claim).data
            assert list(claim_data(claim)) == list(ClaimOutputSerializer(claim).data)
        for result in results:
            assert result_data(result) == ResultOutputSerializer(result).data
            assert list(result_data(result)) == list(ResultOutputSerializer(result).data)


# --- The sheet checks: the faster walks against the plain ones ----------------------------

_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**10), max_value=10**10)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["0-0", "6-4", " 4|6 ", "[6|4]", "a\x00b", "\ud800", "\x7f", "é"])
)
_trees = st.recursive(
    _leaves,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=3) | st.just("k\x00"), children, max_size=4)
    ),
    max_leaves=40,
)


def _plain_check_sheet_tree(value: Any) -> tuple[str, str] | None:
    """``check_sheet_tree`` as it was (an explicit stack), as an oracle: the first refusal's
    code and message, or None."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if depth > assessment.MAX_SHEET_DEPTH or nodes > assessment.MAX_SHEET_NODES:
            return "sheet_too_large", "deep"
        if isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in str(key):
                    return "sheet_malformed", "NUL characters are not allowed."
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and "\x00" in item:
            return "sheet_malformed", "NUL characters are not allowed."
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > 10**9:
            return "sheet_malformed", "A number in this scoresheet is out of range."
    size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=True))
    if size > assessment.MAX_SHEET_BYTES:
        return "sheet_too_large", "bytes"
    return None


def _refusal(value: Any) -> tuple[str, str] | None:
    try:
        assessment.check_sheet_tree(value)
    except ValidationFailed as exc:
        message = exc.message if exc.code == "sheet_malformed" else "deep"
        if exc.code == "sheet_too_large" and isinstance(exc.details, dict):
            message = "bytes" if "max_bytes" in exc.details else "deep"
        return exc.code, message
    return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trees)
def test_the_sheet_tree_check_refuses_what_the_plain_walk_refused(tree: Any) -> None:
    assert _refusal(tree) == _plain_check_sheet_tree(tree)


def test_the_sheet_tree_check_still_refuses_deep_large_and_long_sheets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deep: Any = 1
    for _ in range(assessment.MAX_SHEET_DEPTH + 1):
        deep = [deep]
    assert _refusal(deep) == _plain_check_sheet_tree(deep) == ("sheet_too_large", "deep")
    wide = {"hands": [[1, 2, 3]] * (assessment.MAX_SHEET_NODES // 4 + 10)}
    assert _refusal(wide) == _plain_check_sheet_tree(wide) == ("sheet_too_large", "deep")
    # near the byte limit the exact size decides: a sheet just under and one just over
    monkeypatch.setattr(assessment, "MAX_SHEET_BYTES", 1000)
    # DEL takes 1 byte in orjson's UTF-8 and 6 escaped: 160 of them are under the limit only by
    # the exact count, 200 over it
    for text, refused in (("x" * 900, None), ("x" * 1000, "bytes"), ("\x7f" * 160, None)):
        expected = None if refused is None else ("sheet_too_large", refused)
        assert _refusal({"note": text}) == _plain_check_sheet_tree({"note": text}) == expected
    assert _refusal({"note": "\x7f" * 200}) == ("sheet_too_large", "bytes")


def _plain_normalize(value: Any) -> Any:
    import scoring

    if isinstance(value, dict):
        return {k: _plain_normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_normalize(v) for v in value]
    if isinstance(value, str):
        try:
            return str(scoring.Tile.parse(value.strip()))
        except scoring.TileError:
            return value
    return value


@settings(max_examples=300, deadline=None)
@given(_trees)
def test_the_canonical_form_is_what_it_was(tree: Any) -> None:
    assert assessment._normalize(tree) == _plain_normalize(tree)
    long_text = " 4-6 " + " " * 40
    assert assessment._normalize([long_text]) == _plain_normalize([long_text])


def _plain_depth_exceeds(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


@settings(max_examples=300, deadline=None)
@given(_trees, st.integers(min_value=0, max_value=6))
def test_the_depth_check_and_the_unstorable_shortcut_agree_with_the_plain_walks(
    tree: Any, limit: int
) -> None:
    assert json_depth_exceeds(tree, limit) == _plain_depth_exceeds(tree, limit)
    for body in (
        json.dumps(tree).encode(),
        json.dumps(tree, ensure_ascii=False).encode("utf-8", "surrogatepass"),
        json.dumps(tree, ensure_ascii=False).encode("utf-16", "surrogatepass"),
    ):
        if may_hold_unstorable(body):
            continue
        parsed = json.loads(body)  # the middleware's parse
        try:
            assert find_unstorable(parsed) is None
        except TooDeep:
            assert json_depth_exceeds(parsed, MAX_DEPTH)


def test_the_service_checks_a_sheet_the_api_did_not_check() -> None:
    event = make_event()
    bad = sheet("tally")
    bad["hands"][0]["note"] = "a\x00b"
    with pytest.raises(ValidationFailed) as refused:
        assessment.assess_sheet(event, bad)
    assert refused.value.code == "sheet_malformed"
    other = sheet("tally")
    with assessment.tree_checked(other), pytest.raises(ValidationFailed) as again:
        assessment.assess_sheet(event, bad)  # another object: checked
    assert again.value.code == "sheet_malformed"


def test_a_nul_in_a_sheet_sent_to_the_api_is_still_refused() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    bad = sheet("tally")
    bad["hands"][0]["note"] = "a\x00b"
    answer = post(
        table_client(rnd, 1), f"/api/matches/{match.pk}/claims/", {"side": 0, "sheet": bad}
    )
    assert answer.status_code == 400
    assert not Claim.objects.filter(match=match).exists()


# --- The standings' kept records and the garbage collector --------------------------------


def test_kept_standings_are_frozen_out_of_collections_and_unfrozen_when_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gc.unfreeze()
    monkeypatch.setattr(standings_records, "RECENT_EVENTS", 1)
    standings_records._recent.clear()
    first = make_round(make_event("first"))
    second = make_round(make_event("second"))
    try:
        standings_records.compute_snapshot_bytes(event_id=first.event_id)
        assert gc.get_freeze_count() > 0  # a computation from scratch: frozen
        standings_records.compute_snapshot_bytes(event_id=second.event_id)
        assert gc.get_freeze_count() == 0  # the first event dropped: unfrozen
        assert list(standings_records._recent) == [second.event_id]
        assert gc.isenabled()
    finally:
        standings_records._recent.clear()
        gc.unfreeze()
    assert Round.objects.count() == 2


def _statement_index(statements: list[str], table: str, verb: str) -> list[int]:
    return [
        i
        for i, sql in enumerate(statements)
        if sql.lstrip().upper().startswith(verb) and f'"{table}"' in sql
    ]


def test_a_confirmation_writes_the_events_shared_rows_last(
    django_assert_num_queries: Any,
) -> None:
    """The rows every result of the event touches (its standings state, its pending re-rating
    mark: ``tournaments/shared_rows.py``) are written after the answer is stored, just before
    the commit, so another table's confirmation waits on them for those statements only."""
    event = make_event()
    event.rated = True
    event.save(update_fields=["rated"])
    rnd = make_round(event, tables=2)
    _confirm_table(rnd, 2)
    match = match_at(rnd, 1)
    post(
        table_client(rnd, 1),
        f"/api/matches/{match.pk}/claims/",
        {"side": 0, "sheet": sheet("tally")},
    )
    side_b = table_client(rnd, 1, side=1)
    with django_assert_num_queries(CONFIRMATION) as captured:
        confirm = post(side_b, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match='"1"')
    assert confirm.status_code == 201, confirm.content
    statements = [q["sql"] for q in captured.captured_queries]
    answer = _statement_index(statements, "tournaments_idempotencyrecord", "UPDATE")
    state = _statement_index(statements, "tournaments_standingsstate", "UPDATE")
    mark = _statement_index(statements, "tournaments_backgroundjob", "SELECT")
    result = _statement_index(statements, "tournaments_matchresult", "INSERT")
    assert len(answer) == 1 and state and mark and result
    assert result[0] < answer[0] < min(state + mark)
    # Nothing but the shared rows (and the commit) after the answer.
    tail = [sql for sql in statements[answer[0] + 1 :] if not sql.startswith(("RELEASE", "COMMIT"))]
    assert all(
        '"tournaments_standingsstate"' in sql or '"tournaments_backgroundjob"' in sql
        for sql in tail
    ), tail


def test_a_refused_confirmation_leaves_the_events_shared_rows_alone() -> None:
    from tournaments.models import StandingsState

    rnd = make_round(make_event(), tables=2)
    _confirm_table(rnd, 2)
    generation = StandingsState.objects.get(pk=rnd.event_id).results_generation
    match = match_at(rnd, 1)
    post(
        table_client(rnd, 1),
        f"/api/matches/{match.pk}/claims/",
        {"side": 0, "sheet": sheet("tally")},
    )
    stale = post(
        table_client(rnd, 1, side=1),
        f"/api/matches/{match.pk}/confirm/",
        {"side": 1},
        If_Match='"7"',
    )
    assert stale.status_code in (409, 412), stale.content
    assert StandingsState.objects.get(pk=rnd.event_id).results_generation == generation
    assert not MatchResult.objects.filter(match=match).exists()
