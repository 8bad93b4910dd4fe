"""Trust without a second phone (issue 29): each table phone sends its device id with its claims;
a confirmation from the device that sent the claim is taken and marked for the director
("confirmed on the submitting phone"), or refused where the event requires another device. The
claim status tells the sending phone, so that its Confirm asks "Are you the other team?"."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import LazySettings
from django.test import Client

from tests.tournaments.api_support import assert_error, post, private_cache, table_client
from tests.tournaments.phone_factory import make_setup
from tests.tournaments.test_table_page import tally_sheet
from tournaments.errors import SpinnerError
from tournaments.models import Claim, Event
from tournaments.services.claims import clean_device, confirm_claim, submit_claim

pytestmark = pytest.mark.django_db

PHONE = "0f3c9a51d2e84b7f9a6c1e2d3b4a5f60"
OTHER = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"


@pytest.fixture(autouse=True)
def _cache(settings: LazySettings) -> Any:
    with private_cache(settings):
        yield


def test_a_confirmation_on_the_submitting_phone_is_taken_and_marked() -> None:
    match = make_setup(rules="five-up", target=25).matches[0]
    sent = submit_claim(match=match, side=0, sheet=tally_sheet(), device=PHONE).claim
    assert sent.device == PHONE and not sent.same_device
    out = confirm_claim(match=match, side=1, expected_version=1, device=PHONE)
    assert out.state == "confirmed" and out.claim.same_device and out.claim.device == PHONE


@pytest.mark.parametrize(("device", "same"), [(OTHER, False), ("", False)])
def test_another_phone_or_none_said_is_not_marked(device: str, same: bool) -> None:
    match = make_setup(rules="five-up", target=25).matches[0]
    submit_claim(match=match, side=0, sheet=tally_sheet(), device=PHONE)
    out = confirm_claim(match=match, side=1, expected_version=1, device=device)
    assert out.state == "confirmed" and out.claim.same_device is same


def test_the_event_may_require_another_device() -> None:
    setup = make_setup(rules="five-up", target=25, require_other_device=True)
    match = setup.matches[0]
    submit_claim(match=match, side=0, sheet=tally_sheet(), device=PHONE)
    with pytest.raises(SpinnerError) as refused:
        confirm_claim(match=match, side=1, expected_version=1, device=PHONE)
    assert refused.value.code == "same_device"
    assert Claim.objects.filter(match=match, side=1).count() == 0
    out = confirm_claim(match=match, side=1, expected_version=1, device=OTHER)
    assert out.state == "confirmed" and not out.claim.same_device


def test_the_setting_is_off_by_default() -> None:
    assert Event._meta.get_field("require_other_device").default is False


def test_the_api_takes_the_device_from_its_header() -> None:
    setup = make_setup(rules="five-up", target=25, require_other_device=True)
    match = setup.matches[0]
    a, b = table_client(setup.round, 1, side=0), table_client(setup.round, 1, side=1)
    sent = post(
        a, f"/api/matches/{match.pk}/claims/", {"sheet": tally_sheet()}, X_Spinner_Device=PHONE
    )
    assert sent.status_code == 201, sent.content
    assert Claim.objects.get(match=match, side=0).device == PHONE
    url = f"/api/matches/{match.pk}/confirm/"
    assert_error(post(b, url, {}, If_Match='"1"', X_Spinner_Device=PHONE), 409, "same_device")
    done = post(b, url, {}, If_Match='"1"', X_Spinner_Device=OTHER)
    assert done.status_code == 201 and done.json()["match"]["state"] == "confirmed"


def test_the_status_tells_the_sending_phone_and_the_desk_marks_it(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    match = setup.matches[0]
    submit_claim(match=match, side=0, sheet=tally_sheet(), device=PHONE)
    status = setup.path(0, side=1).rstrip("/") + "/status"
    here = client.get(status, HTTP_X_SPINNER_DEVICE=PHONE).content.decode()
    assert 'data-same-device="1"' in here and 'id="same-device"' in here
    elsewhere = client.get(status, HTTP_X_SPINNER_DEVICE=OTHER).content.decode()
    assert "data-same-device" not in elsewhere and 'data-action="confirm"' in elsewhere
    confirm_claim(match=match, side=1, expected_version=1, device=PHONE)
    client.force_login(setup.director)
    board = client.get(f"/director/events/{setup.event.slug}/rounds/1/results/").content.decode()
    assert "confirmed on the submitting phone" in board
    page = client.get(
        f"/director/events/{setup.event.slug}/rounds/1/results/{match.pk}/"
    ).content.decode()
    assert 'id="same-device-1"' in page


def test_a_required_other_device_offers_no_confirm_on_the_sending_phone(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25, require_other_device=True)
    submit_claim(match=setup.matches[0], side=0, sheet=tally_sheet(), device=PHONE)
    status = setup.path(0, side=1).rstrip("/") + "/status"
    here = client.get(status, HTTP_X_SPINNER_DEVICE=PHONE).content.decode()
    assert 'id="same-device-refused"' in here and 'data-action="confirm"' not in here


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (PHONE, PHONE),
        (" " + OTHER + " ", OTHER),
        ("x" * 80, "x" * 64),
        ("a b", ""),
        (None, ""),
        ("é", ""),
    ],
)
def test_a_device_id_is_kept_only_as_letters_digits_and_hyphens(given: Any, kept: str) -> None:
    assert clean_device(given) == kept


def test_the_setting_is_on_the_events_settings_page(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    client.force_login(setup.director)
    page = client.get(f"/director/events/{setup.event.slug}/edit/").content.decode()
    assert "Require a different device to confirm" in page and 'name="require_other_device"' in page
