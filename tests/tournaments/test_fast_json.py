"""JSON written by orjson (``tournaments.fast_json``, ``api.renderers``) gives what the standard
library gave: the API's bytes are DRF's, a JSON column reads back the value it was given, and
whatever orjson does not take falls back to the standard library's answer.
"""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from typing import Any

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from tests.tournaments.api_support import post, table_client
from tests.tournaments.results_support import make_event, make_round, match_at, sheet
from tournaments.api.renderers import FastJSONRenderer
from tournaments.fast_json import FastJSONEncoder
from tournaments.models import Claim, IdempotencyRecord, MatchResult

_text = st.text(
    alphabet=st.characters(exclude_categories=("Cs",), include_characters='\u2028\u2029"\\'),
    max_size=12,
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    _text,
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(_text, inner, max_size=5)),
    max_leaves=40,
)
_zones = st.sampled_from(
    [None, datetime.UTC, datetime.timezone(datetime.timedelta(hours=-3, minutes=-30))]
)
_extras = st.one_of(
    st.builds(lambda d, z: d.replace(tzinfo=z), st.datetimes(), _zones),
    st.dates(),
    st.times(),
    st.timedeltas(),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.uuids(),
    st.just(gettext_lazy("Round")),
    st.tuples(st.integers(), _text),
    st.integers(min_value=2**64, max_value=2**80),  # beyond orjson: the standard library's
)
_api_values = st.recursive(
    st.one_of(_scalars, _extras),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(_text, st.integers(-5, 5)), inner, max_size=5),
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_api_values)
def test_the_api_renders_drfs_bytes(value: Any) -> None:
    fast, drf = FastJSONRenderer().render(value), JSONRenderer().render(value)
    if _floats(value):  # the same numbers; an exponent may be spelled otherwise (1e-7, 1e-07)
        assert json.loads(fast) == json.loads(drf)
    else:
        assert fast == drf


def _floats(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_floats(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_floats(v) for v in value)
    return False


@pytest.mark.parametrize("accepted", ["application/json; indent=4", "application/json"])
def test_an_indented_or_plain_answer_is_drfs_too(accepted: str) -> None:
    value = {
        "a": [1, 2.5, "línea\u2028"],
        "at": datetime.datetime(2026, 12, 2, tzinfo=datetime.UTC),
    }
    assert FastJSONRenderer().render(value, accepted) == JSONRenderer().render(value, accepted)
    assert FastJSONRenderer().render(None) == b""


@settings(max_examples=400, deadline=None)
@given(_json)
def test_a_json_column_reads_back_what_the_standard_library_would(value: Any) -> None:
    assert json.loads(json.dumps(value, cls=FastJSONEncoder)) == json.loads(json.dumps(value))


@pytest.mark.parametrize(
    "value",
    [
        2**70,  # beyond 64 bits
        {"deep": json.loads("[" * 300 + "]" * 300)},  # beyond orjson's nesting
    ],
)
def test_what_orjson_refuses_is_the_standard_librarys(value: Any) -> None:
    assert json.dumps(value, cls=FastJSONEncoder) == json.dumps(value)


@pytest.mark.parametrize(
    "value",
    [
        datetime.datetime(2026, 12, 2),
        decimal.Decimal("1.5"),
        uuid.UUID(int=1).hex.encode(),
        {1, 2},
    ],
)
def test_a_value_the_standard_library_refuses_is_refused_the_same(value: Any) -> None:
    with pytest.raises(TypeError) as plain:
        json.dumps(value)
    with pytest.raises(TypeError) as fast:
        json.dumps(value, cls=FastJSONEncoder)
    assert str(fast.value) == str(plain.value)


@pytest.mark.django_db
def test_sheets_verdicts_and_kept_answers_read_back_as_written() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    played = sheet("tally")
    side_a, side_b = table_client(rnd, 1, side=0), table_client(rnd, 1, side=1)
    claim = post(side_a, f"/api/matches/{match.pk}/claims/", {"side": 0, "sheet": played})
    assert claim.status_code == 201, claim.content
    stored = Claim.objects.get(match=match, side=0)
    assert stored.sheet == played
    assert stored.verdict == claim.json()["claim"]["verdict"]
    confirm = post(side_b, f"/api/matches/{match.pk}/confirm/", {"side": 1}, If_Match='"1"')
    assert confirm.status_code == 201, confirm.content
    result = MatchResult.objects.get(match=match, is_current=True)
    assert result.sheet == played
    kept = IdempotencyRecord.objects.order_by("-pk").first()
    assert kept is not None and kept.response_body == confirm.json()
    # any text a column may hold, as it was written (a kept answer: claims are immutable)
    odd = {"notes": 'Ñandú \u2028 "quoted" \\ ✓ 🁣', "n": [2**62, -1.5e-7, 1e16], "k": {"1": None}}
    kept.response_body = odd
    kept.save(update_fields=["response_body"])
    kept.refresh_from_db()
    assert kept.response_body == odd
