"""The rounds API: generation as a job, the review, swaps with a reason, the status moves, the
clock, the play-off's next round, tiebreak rounds and the finish, through HTTP alone (the
services the pages call, with their audit entries and error codes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.tournaments.api_support import assert_error, key, post, private_cache, user_client
from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments.models import AuditEntry, BackgroundJob, Event, Match, Round, RoundSeat
from tournaments.services import decisions, round_generation, round_status
from tournaments.services.api_tokens import create_api_token, hash_key
from tournaments.services.standings import recompute_standings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


def api(event: Event, path: str = "") -> str:
    return f"/api/events/{event.slug}/{path}"


def director(event: Event) -> tuple[APIClient, User]:
    boss = make_director(event)
    return user_client(boss), boss


def generate(client: APIClient, event: Event, capture: Any, kind: str = "next") -> dict[str, Any]:
    """Start a job through the API, let the (eager) worker run it, and poll it done."""
    with capture(execute=True):
        started = post(client, api(event, "rounds/generate/"), {"kind": kind})
    assert started.status_code == 202, started.content
    job = started.json()["job"]
    assert started["Location"] == api(event, f"jobs/{job['id']}/") == job["url"]
    done = client.get(started["Location"])
    assert done.status_code == 200, done.content
    return dict(done.json())


def settle(rnd: Round, boss: User) -> None:
    """Every played match gets the director's arbitral result (side A wins 61-40)."""
    for match in Match.objects.filter(round=rnd, is_bye=False, game_no=1):
        decisions.override_result(
            match=match, reason="played", actor=boss, final_score={"scores": [305, 200]}
        )
    recompute_standings(event_id=rnd.event_id)


def test_a_swiss_round_from_generation_to_close_through_the_api(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event("swiss", swiss_rounds=2, round_minutes=30)
    client, boss = director(event)
    make_field(event, 6)
    job = generate(client, event, django_capture_on_commit_callbacks)
    assert job["status"] == "done" and job["kind"] == "generate_round" and job["progress"] == 100
    assert job["round"]["number"] == 1 and job["round"]["status"] == "draft"
    assert job["error"] is None and job["round"]["url"] == api(event, "rounds/1/")

    listed = client.get(api(event, "rounds/"))
    assert listed.status_code == 200
    assert [(r["number"], r["status"], r["match_count"]) for r in listed.json()["results"]] == [
        (1, "draft", 3)
    ]
    review = client.get(api(event, "rounds/1/")).json()
    rnd = Round.objects.get(event=event, number=1)
    assert [t["table"] for t in review["tables"]] == [1, 2, 3]
    first = rnd.matches.get(table__number=1)
    assert review["tables"][0]["match"] == first.pk
    assert review["tables"][0]["entry_a"]["id"] == first.entry_a_id
    assert review["tables"][0]["reason"] == first.explanation["reason"]
    assert len(review["tables"][0]["entry_a"]["players"]) == 2
    assert review["checks"] == {"violations": [], "overrides": []}
    assert sorted(r["entry"] for r in review["ranking"]) == sorted(
        e.pk for e in event.entries.all()
    )
    assert review["explanation"]["salt"] == event.salt
    assert review["clock"]["state"] == "not_started"

    published = post(client, api(event, "rounds/1/publish/"), {})
    assert published.status_code == 200 and published.json()["status"] == "published"
    started = post(client, api(event, "rounds/1/start/"), {})
    assert started.status_code == 200 and started.json()["status"] == "in_play"
    assert started.json()["clock"]["state"] == "running"
    closing = post(client, api(event, "rounds/1/close/"), {})
    assert_error(closing, 409, "results_missing")
    settle(rnd, boss)
    closed = post(client, api(event, "rounds/1/close/"), {})
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    actions = list(
        AuditEntry.objects.filter(event=event, object_type="round")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "round.generate",
        "round.publish",
        "round.start",
        "round.clock_start",
        "round.close",
    ]
    assert AuditEntry.objects.filter(event=event, action="round.generate_requested").count() == 1
    assert {a.actor_id for a in AuditEntry.objects.filter(event=event)} == {boss.pk}

    second = generate(client, event, django_capture_on_commit_callbacks)
    assert second["round"]["number"] == 2
    drafts = client.get(api(event, "rounds/"), {"status": "draft"}).json()["results"]
    assert [r["number"] for r in drafts] == [2]


def test_generation_refusals_carry_the_pages_codes(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event("refused", swiss_rounds=1)
    client, _ = director(event)
    assert_error(post(client, api(event, "rounds/generate/"), {}), 409, "too_few_entries")
    make_field(event, 4)
    generate(client, event, django_capture_on_commit_callbacks)
    assert_error(post(client, api(event, "rounds/generate/"), {}), 409, "previous_round_open")
    with django_capture_on_commit_callbacks(execute=False):  # no worker has taken it yet
        Round.objects.filter(event=event).delete()
        pending = post(client, api(event, "rounds/generate/"), {})
        again = post(client, api(event, "rounds/generate/"), {})
    body = assert_error(again, 409, "generation_running")
    assert body["details"]["job"] == pending.json()["job"]["id"]
    waiting = client.get(pending["Location"]).json()
    assert waiting["status"] == "pending" and waiting["round"] is None
    assert_error(post(client, api(event, "rounds/generate/"), {"kind": "x"}), 400, "invalid")
    assert_error(
        post(client, api(event, "rounds/generate/"), {"kind": "next", "extra": 1}), 400, "invalid"
    )
    assert_error(
        post(client, api(event, "rounds/generate/"), {"kind": "playoff"}), 400, "no_playoff"
    )


def test_a_failed_job_says_why_with_its_code(django_capture_on_commit_callbacks: Any) -> None:
    event = make_event("failing", swiss_rounds=1)
    client, boss = director(event)
    make_field(event, 4)
    with django_capture_on_commit_callbacks(execute=False):
        started = post(client, api(event, "rounds/generate/"), {})
    # Before the worker runs it, the director pairs the round another way: the job then fails.
    round_generation.generate_round(event=event, actor=boss)
    from tournaments.services.director_jobs import run_director_job

    run_director_job(job_id=started.json()["job"]["id"])
    failed = client.get(started["Location"]).json()
    assert failed["status"] == "failed" and failed["round"] is None
    assert failed["error"]["code"] == "previous_round_open"
    other = make_event("other-event")
    assert_error(client.get(api(other, f"jobs/{failed['id']}/")), 404, "not_found")
    assert_error(client.get(api(event, "jobs/999999/")), 404, "not_found")


def test_a_retried_generation_replays_the_first_answer(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event("retry")
    client, _ = director(event)
    make_field(event, 4)
    same = key()
    with django_capture_on_commit_callbacks(execute=True):
        first = post(client, api(event, "rounds/generate/"), {}, Idempotency_Key=same)
        second = post(client, api(event, "rounds/generate/"), {}, Idempotency_Key=same)
    assert first.status_code == second.status_code == 202
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json() and second["Location"] == first["Location"]
    assert BackgroundJob.objects.filter(event=event).count() == 1
    assert Round.objects.filter(event=event).count() == 1
    changed = post(
        client, api(event, "rounds/generate/"), {"kind": "tiebreak"}, Idempotency_Key=same
    )
    assert_error(changed, 422, "idempotency_mismatch")


def _second_round(event: Event, boss: User) -> Round:
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle(first, boss)
    round_status.close_round(round=first, actor=boss)
    return round_generation.generate_round(event=event, actor=boss)


def test_swaps_need_a_reason_preview_without_writing_and_mark_the_override() -> None:
    event = make_event("swaps", swiss_rounds=3)
    client, boss = director(event)
    make_field(event, 6)
    rnd = _second_round(event, boss)
    url = api(event, "rounds/2/swap/")
    m1 = rnd.matches.get(table__number=1)
    first = Round.objects.get(event=event, number=1)
    old = RoundSeat.objects.select_related("match").get(round=first, entry_id=m1.entry_a_id).match
    former = old.entry_b_id if old.entry_a_id == m1.entry_a_id else old.entry_a_id
    pair = [m1.entry_b_id, former]

    assert_error(post(client, url, {"entries": pair}), 400, "invalid")
    assert_error(post(client, url, {"entries": pair, "reason": "   "}), 400, "invalid")
    assert_error(
        post(client, url, {"entries": [pair[0], pair[0]], "reason": "x"}), 400, "same_entry"
    )
    assert_error(
        post(client, url, {"entries": [pair[0], 999999], "reason": "x"}), 404, "not_in_round"
    )
    assert_error(post(client, url, {"tables": [1, 1], "reason": "x"}), 400, "same_table")
    assert_error(
        post(client, url, {"entries": pair, "tables": [1, 2], "reason": "x"}), 400, "invalid"
    )
    before = AuditEntry.objects.count()

    preview = post(client, url, {"entries": pair, "reason": "club request", "dry_run": True})
    assert preview.status_code == 200, preview.content
    assert [f["code"] for f in preview.json()["findings"]] == ["override"]
    assert "rematch" in preview.json()["findings"][0]["message"]
    assert AuditEntry.objects.count() == before
    assert Match.objects.get(pk=m1.pk).entry_b_id == pair[0]  # nothing changed

    swapped = post(client, url, {"entries": pair, "reason": "club request"})
    assert swapped.status_code == 200, swapped.content
    table1 = swapped.json()["tables"][0]
    assert table1["entry_b"]["id"] == former
    assert table1["overrides"][0]["reason"] == "club request"
    assert table1["overrides"][0]["by"] == boss.username
    assert [f["code"] for f in swapped.json()["checks"]["overrides"]] == ["override"]
    assert swapped.json()["checks"]["violations"] == []
    entry = AuditEntry.objects.get(action="round.swap_entries")
    assert entry.reason == "club request" and entry.actor_id == boss.pk

    tables = post(client, url, {"tables": [1, 2], "reason": "step-free access"})
    assert tables.status_code == 200
    assert tables.json()["tables"][1]["entry_b"]["id"] == former
    assert AuditEntry.objects.get(action="round.swap_tables").reason == "step-free access"

    post(client, api(event, "rounds/2/publish/"), {})
    late = post(client, url, {"tables": [1, 2], "reason": "too late"})
    assert_error(late, 409, "round_not_draft")


def test_discard_a_draft_with_a_reason_and_the_wrong_moves_are_refused() -> None:
    event = make_event("moves", swiss_rounds=2)
    client, boss = director(event)
    make_field(event, 4)
    round_generation.generate_round(event=event, actor=boss)
    assert_error(post(client, api(event, "rounds/1/start/"), {}), 409, "round_not_published")
    assert_error(post(client, api(event, "rounds/1/close/"), {}), 409, "round_not_published")
    assert_error(post(client, api(event, "rounds/1/discard/"), {}), 400, "reason_required")
    gone = post(client, api(event, "rounds/1/discard/"), {"reason": "wrong check-ins"})
    assert gone.status_code == 204 and not Round.objects.filter(event=event).exists()
    assert AuditEntry.objects.get(action="round.discard").reason == "wrong check-ins"
    assert_error(post(client, api(event, "rounds/1/publish/"), {}), 404, "not_found")
    assert_error(client.get(api(event, "rounds/1/")), 404, "not_found")
    assert client.post(api(event, "rounds/1/explode/"), {}, format="json").status_code == 404


def test_the_clock_through_the_api(django_capture_on_commit_callbacks: Any) -> None:
    event = make_event("clock", swiss_rounds=1, round_minutes=30)
    client, boss = director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    clock = api(event, "rounds/1/clock/")
    assert_error(post(client, clock + "start/", {}), 409, "round_not_in_play")
    round_status.publish_round(round=rnd, actor=boss)
    post(client, api(event, "rounds/1/start/"), {})
    assert_error(post(client, clock + "start/", {}), 409, "clock_already_started")
    paused = post(client, clock + "pause/", {})
    assert paused.status_code == 200 and paused.json()["clock"]["state"] == "paused"
    assert_error(post(client, clock + "pause/", {}), 409, "clock_paused")
    left = paused.json()["clock"]["seconds_left"]
    extended = post(client, clock + "extend/", {"minutes": 5})
    assert extended.json()["clock"]["seconds_left"] == left + 300
    assert_error(post(client, clock + "extend/", {}), 400, "clock_minutes_invalid")
    assert_error(post(client, clock + "extend/", {"minutes": 0}), 400, "invalid")
    resumed = post(client, clock + "resume/", {})
    assert resumed.json()["clock"]["state"] == "running"
    ended = post(client, clock + "end/", {})
    assert ended.json() == {
        "round": 1,
        "status": "in_play",
        "clock": {**ended.json()["clock"], "state": "expired", "seconds_left": 0},
    }
    assert_error(post(client, clock + "resume/", {}), 409, "clock_expired")
    assert client.get(api(event, "rounds/1/")).json()["late_tables"] == 2
    assert list(
        AuditEntry.objects.filter(action__startswith="round.clock")
        .order_by("pk")
        .values_list("action", flat=True)
    ) == [
        "round.clock_start",
        "round.clock_pause",
        "round.clock_extend",
        "round.clock_resume",
        "round.clock_end",
    ]


def test_a_play_off_seeded_advanced_and_finished_through_the_api(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event(
        "cup", swiss_rounds=1, playoff=Event.Playoff.SINGLE, playoff_qualifiers=4,
        tiebreaks=["spread"],
    )  # fmt: skip
    client, boss = director(event)
    entries = make_field(event, 8)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    for n, match in enumerate(Match.objects.filter(round=first).order_by("table__number")):
        decisions.override_result(  # different margins: no tie across the cut
            match=match, reason="played", actor=boss, final_score={"scores": [305, 100 + 20 * n]}
        )
    recompute_standings(event_id=event.pk)
    round_status.close_round(round=first, actor=boss)
    check = client.get(api(event, "finish/")).json()
    assert check["ready"] is False and check["error"]["code"] == "playoff_needs_seeding"
    assert_error(post(client, api(event, "playoff/advance/"), {}), 409, "playoff_needs_seeding")

    seeded = generate(client, event, django_capture_on_commit_callbacks, kind="playoff")
    assert seeded["kind"] == "seed_playoff" and seeded["round"]["kind"] == "playoff"
    assert_error(post(client, api(event, "playoff/advance/"), {}), 409, "playoff_round_draft")
    post(client, api(event, "rounds/2/publish/"), {})
    semis = Round.objects.get(event=event, number=2)
    assert_error(post(client, api(event, "playoff/advance/"), {}), 409, "playoff_round_in_play")
    settle(semis, boss)  # on-commit callbacks do not run here: no worker advances it
    advanced = post(client, api(event, "playoff/advance/"), {})
    assert advanced.status_code == 201, advanced.content
    assert advanced.json()["round"]["number"] == 3 and advanced["Location"] == api(
        event, "rounds/3/"
    )
    assert Round.objects.get(event=event, number=2).status == Round.Status.CLOSED
    post(client, api(event, "rounds/3/publish/"), {})
    settle(Round.objects.get(event=event, number=3), boss)
    assert_error(post(client, api(event, "playoff/advance/"), {}), 409, "playoff_finished")
    ready = client.get(api(event, "finish/")).json()
    assert ready["ready"] is True and ready["error"] is None
    champion = ready["placings"][0]
    done = post(client, api(event, "finish/"), {})
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "finished" and done.json()["placings"][0] == champion
    assert champion["entry_id"] in {e.pk for e in entries}
    assert AuditEntry.objects.filter(event=event, action="event.finish").count() == 1
    assert_error(post(client, api(event, "finish/"), {}), 409, "event_finished")


def test_a_tiebreak_round_is_proposed_as_a_job_and_published_as_approved(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event(
        "ties", swiss_rounds=1, playoff=Event.Playoff.SINGLE, playoff_qualifiers=3,
        tiebreaks=["spread"],
    )  # fmt: skip
    client, boss = director(event)
    make_field(event, 4)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle(first, boss)  # both tables 305-200: the two losers tie across the cut (3rd)
    round_status.close_round(round=first, actor=boss)
    assert_error(
        post(client, api(event, "rounds/generate/"), {"kind": "playoff"}), 409, "tied_at_cut"
    )
    proposed = generate(client, event, django_capture_on_commit_callbacks, kind="tiebreak")
    assert proposed["kind"] == "propose_tiebreak_round"
    assert proposed["round"] == {**proposed["round"], "number": 2, "kind": "tiebreak"}
    published = post(client, api(event, "rounds/2/publish/"), {})
    assert published.status_code == 200 and published.json()["status"] == "published"
    assert AuditEntry.objects.filter(event=event, action="tiebreak_round.approve").count() == 1


def test_the_table_links_of_a_round_are_its_directors_alone() -> None:
    event = make_event("links", swiss_rounds=1)
    client, boss = director(event)
    make_field(event, 5)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    links = client.get(api(event, "rounds/1/links/"))
    assert links.status_code == 200 and links["Cache-Control"] == "no-store"
    tables = links.json()
    assert [t["table"] for t in tables] == [1, 2]  # five entries: two tables and a bye
    side_b = tables[1]["sides"][1]
    match = Match.objects.get(pk=tables[1]["match"])
    assert (side_b["side"], side_b["letter"], side_b["entry"]) == (1, "B", match.entry_b_id)
    assert side_b["url"] == f"http://testserver/t/{side_b['token']}/"
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {side_b['token']}")
    mine = phone.get("/api/table/").json()
    assert (mine["table"], mine["side"], mine["match"]["id"]) == (2, 1, match.pk)

    staff = user_client(User.objects.create_user(username="watcher", is_staff=True))
    assert staff.get(api(event, "rounds/1/")).status_code == 200  # reads the round...
    assert_error(staff.get(api(event, "rounds/1/links/")), 403, "read_only_staff")  # ...not links
    from tournaments.models import ApiToken

    reader = APIClient()
    _, secret = create_api_token(user=boss)
    ApiToken.objects.filter(key_hash=hash_key(secret)).update(scope=ApiToken.Scope.READ)
    reader.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    assert_error(reader.get(api(event, "rounds/1/links/")), 403, "api_token_read_only")


def test_the_new_selectors_read_with_one_query_each(django_assert_num_queries: Any) -> None:
    from tournaments.selectors import rounds as selectors

    event = make_event("queries", swiss_rounds=2)
    _, boss = director(event)
    make_field(event, 9)
    rnd = round_generation.generate_round(event=event, actor=boss)
    job = BackgroundJob.objects.create(event=event, kind="generate_round")
    with django_assert_num_queries(1):
        assert [r.match_count for r in selectors.rounds_with_counts(event)] == [4]
    with django_assert_num_queries(1):
        assert selectors.director_job(event, job.pk) == job
    with django_assert_num_queries(1):
        tabled = selectors.tabled_matches(rnd)
        assert [m.table.number for m in tabled if m.table] == [1, 2, 3, 4]
        assert all(m.entry_b is not None for m in tabled)


@pytest.mark.parametrize("path", ["rounds/", "rounds/1/", "rounds/1/links/"])
def test_the_round_reads_cost_the_same_however_large_the_event(path: str) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (4, 16):
        event = make_event(f"size-{size}", swiss_rounds=2)
        boss = make_director(event, f"boss-{size}")
        client = user_client(boss)
        make_field(event, size)
        rnd = round_generation.generate_round(event=event, actor=boss)
        round_status.publish_round(round=rnd, actor=boss)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(api(event, path)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_an_empty_idempotency_key_is_refused_not_taken_for_none() -> None:
    event = make_event("empty-key", swiss_rounds=1)
    client, boss = director(event)
    make_field(event, 4)
    round_generation.generate_round(event=event, actor=boss)
    refused = client.post(
        api(event, "rounds/1/publish/"), {}, format="json", HTTP_IDEMPOTENCY_KEY=""
    )
    assert_error(refused, 400, "idempotency_key_invalid")
    assert Round.objects.get(event=event, number=1).status == Round.Status.DRAFT


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("rounds/1/swap/", {"tables": [1, 2], "reason": 5}),
        ("rounds/1/swap/", {"entries": ["1", 2], "reason": "x"}),
        ("rounds/1/swap/", {"tables": [1, 2], "reason": "x", "dry_run": "yes"}),
        ("rounds/1/discard/", {"reason": ["x"]}),
        ("rounds/1/clock/extend/", {"minutes": "5"}),
        ("rounds/1/clock/extend/", {"minutes": True}),
    ],
)
def test_what_the_schema_refuses_the_api_refuses(path: str, body: dict[str, Any]) -> None:
    """A number for a reason, a string for a number, "yes" for true: 400, nothing changed."""
    event = make_event("types", swiss_rounds=1)
    client, boss = director(event)
    make_field(event, 4)
    round_generation.generate_round(event=event, actor=boss)
    before = AuditEntry.objects.count()
    assert_error(post(client, api(event, path), body), 400, "invalid")
    assert AuditEntry.objects.count() == before
