"""verify never raises: any JSON value, and any valid sheet with a node replaced or deleted."""

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import verify, verify_json
from scoring.simulate import simulate

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-10, max_value=400)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.sampled_from(["1-2", "6-6", "[3|4]", "7-3", "domino", "blocked", "five-up", ""]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["seat", "play", "on", "score", "draw", "pass", "leader", "end", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)
BASE = [next(simulate(r, p, seed=3, target=60)) for r, p in (("five-up", 4), ("all-fives", 3))]


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += nodes(v, (*path, i))
    return out


NODES = [nodes(s) for s in BASE]


def check(verdict: dict[str, Any]) -> None:
    assert set(verdict) == {"valid", "errors", "scores", "winner", "finished"}
    assert verdict["valid"] == (not verdict["errors"])
    json.dumps(verdict, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_any_json_value_gets_a_verdict(value: Any) -> None:
    check(verify(value).as_dict())
    check(verify_json(json.dumps(value)).as_dict())


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=1), st.data(), JSON)
def test_a_sheet_with_any_node_replaced_gets_a_verdict(
    which: int, data: st.DataObject, new: Any
) -> None:
    sheet = copy.deepcopy(BASE[which])
    path = data.draw(st.sampled_from(NODES[which][1:]))
    target = sheet
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    check(verify(sheet).as_dict())


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=1), st.data())
def test_a_sheet_with_any_node_deleted_gets_a_verdict(which: int, data: st.DataObject) -> None:
    sheet = copy.deepcopy(BASE[which])
    path = data.draw(st.sampled_from(NODES[which][1:]))
    target = sheet
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    check(verify(sheet).as_dict())
