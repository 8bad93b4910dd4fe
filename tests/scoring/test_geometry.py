"""Geometry for pictures: tiles on an integer grid, ports and counted ends, no overlaps."""

import json
from itertools import combinations

import pytest

from scoring import Layout, Tile
from scoring.geometry import Rect, picture, position_after
from scoring.simulate import simulate


def T(s: str) -> Tile:
    return Tile.parse(s)


def seed_000_position() -> Layout:
    lay = Layout("five-up")
    for tile, on in [
        ("1-4", None), ("1-1", "1-4"), ("4-4", "1-4"), ("3-4", "4-4"), ("1-2", "1-1"),
        ("1-5", "1-1"), ("5-5", "1-5"), ("0-5", "5-5"), ("1-3", "1-1"),
    ]:  # fmt: skip
        lay.place(T(tile), T(on) if on else None)
    return lay


def test_seed_000_filled_numbers_and_hollow_dots() -> None:
    pic = picture(seed_000_position())
    filled = sorted((p.tile, p.value) for p in pic.ports if p.counted)
    hollow = sorted((p.tile, p.side, p.value) for p in pic.ports if not p.counted)
    assert filled == [("0-5", 0), ("1-2", 2), ("1-3", 3), ("3-4", 3)]
    assert hollow == [("4-4", "branch", 4)] * 2 + [("5-5", "branch", 5)] * 2
    assert sorted((c.tile, c.contribution) for c in pic.counted) == filled
    assert pic.total == 8
    assert not pic.overlaps


def test_doubles_lie_crosswise_and_halves_face_their_neighbours() -> None:
    pic = picture(seed_000_position())
    by = {t.tile: t for t in pic.tiles}
    assert (by["1-4"].x, by["1-4"].y, by["1-4"].horizontal) == (-2, -1, True)
    assert (by["1-4"].first, by["1-4"].second) == (1, 4)
    # 1-1 on the low (left) end: crosswise, i.e. vertical, 2 wide and 4 high.
    assert (by["1-1"].w, by["1-1"].h, by["1-1"].spinner) == (2, 4, True)
    assert by["1-1"].x + by["1-1"].w == by["1-4"].x
    # 1-2 continues the line to the left: its 1 touches the 1-1 on the right.
    assert by["1-2"].horizontal and (by["1-2"].first, by["1-2"].second) == (2, 1)
    # The branches of 1-1 go up and down.
    assert not by["1-5"].horizontal and not by["1-3"].horizontal
    assert {by["1-5"].y < 0, by["1-3"].y < 0} == {True, False}


def test_the_picture_is_json_serialisable() -> None:
    data = picture(seed_000_position()).as_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"rules", "tiles", "ports", "counted", "total", "bounds", "overlaps"}


def test_five_up_7_counts_the_branch_sides() -> None:
    lay = Layout("five-up-7")
    lay.place(T("5-5"), None)
    lay.place(T("1-5"), T("5-5"))
    lay.place(T("2-5"), T("5-5"))
    pic = picture(lay)
    branch = [p for p in pic.ports if p.side == "branch"]
    assert len(branch) == 2 and all(p.counted for p in branch)
    assert pic.total == 13 == sum(c.contribution for c in pic.counted)


@pytest.mark.parametrize("rules", ["five-up", "all-fives", "five-up-7"])
def test_tiles_never_overlap_in_simulated_hands(rules: str) -> None:
    hands = 0
    for players in (2, 3, 4):
        for bot in ("greedy", "random"):
            for sheet in simulate(rules, players, seed=21, count=2, bot=bot, target=150):
                for i in range(len(sheet["hands"])):
                    lay = position_after(sheet, i, None)
                    pic = picture(lay)
                    hands += 1
                    rects = [Rect(t.x, t.y, t.w, t.h) for t in pic.tiles]
                    assert len(rects) == len(lay.placements)
                    assert not pic.overlaps
                    assert not any(a.overlaps(b) for a, b in combinations(rects, 2))
                    assert pic.total == lay.total
                    assert sum(p.counted for p in pic.ports) >= len(pic.counted) - 1
    assert hands >= 30


def test_position_after_steps_through_a_hand() -> None:
    sheet = next(simulate("all-fives", 2, seed=4))
    moves = sheet["hands"][0]["moves"]
    plays = [j for j, m in enumerate(moves) if "play" in m]
    for j in plays[:6]:
        lay = position_after(sheet, 0, j)
        assert str(lay.placements[-1].tile) == moves[j]["play"]
        assert len(lay) == plays.index(j) + 1
    assert len(position_after(sheet, 0, None)) == len(plays)
    with pytest.raises(ValueError):
        position_after(sheet, 99, None)
    with pytest.raises(ValueError):
        position_after(sheet, 0, 10_000)
