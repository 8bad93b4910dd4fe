"""The layout: every worked example of the seeds, ports versus counted ends, legal placements."""

import pytest

from scoring.layout import BRANCH, HIGH, LINE, LOW, IllegalPlacement, Layout
from scoring.tiles import Tile


def T(s: str) -> Tile:
    return Tile.parse(s)


def counted(lay: Layout) -> list[tuple[str, int]]:
    return sorted((str(t), c) for t, _k, c in lay.counted_ends())


def ports(lay: Layout) -> list[tuple[str, int, int]]:
    return sorted((str(t), k, v) for t, k, v in lay.open_ports())


def test_seed_000_placements_from_1_4_to_1_3() -> None:
    lay = Layout("five-up")
    steps = [
        ("1-4", None, 5),
        ("1-1", "1-4", 6),
        ("4-4", "1-4", 10),
        ("3-4", "4-4", 5),
        ("1-2", "1-1", 5),
        ("1-5", "1-1", 10),
        ("5-5", "1-5", 15),
        ("0-5", "5-5", 5),
        ("1-3", "1-1", 8),
    ]
    for tile, on, total in steps:
        assert lay.place(T(tile), T(on) if on else None) == total
        assert lay.total == lay.recount() == total
    # The seed's last picture: ports and counted contributions.
    assert counted(lay) == [("0-5", 0), ("1-2", 2), ("1-3", 3), ("3-4", 3)]
    assert ports(lay) == sorted(
        [
            ("0-5", LOW, 0),
            ("1-2", HIGH, 2),
            ("1-3", HIGH, 3),
            ("3-4", LOW, 3),
            ("4-4", BRANCH, 4),
            ("4-4", BRANCH, 4),
            ("5-5", BRANCH, 5),
            ("5-5", BRANCH, 5),
        ]
    )
    # Line A / line B and branch A / branch B as the seed names them.
    slots = {(str(p.tile), str(p.on)): (p.port, p.slot) for p in lay.placements}
    assert slots[("1-1", "1-4")] == (LOW, 0)
    assert slots[("1-2", "1-1")] == (LINE, 1)
    assert slots[("1-5", "1-1")] == (BRANCH, 0)
    assert slots[("1-3", "1-1")] == (BRANCH, 1)


def test_seed_000_terminal_doubles_and_lone_doubles() -> None:
    lay = Layout("five-up")
    lay.place(T("1-4"), None)
    lay.place(T("1-1"), T("1-4"))
    assert lay.place(T("4-4"), T("1-4")) == 10
    assert counted(lay) == [("1-1", 2), ("4-4", 8)]
    assert ports(lay) == [("1-1", LINE, 1), ("4-4", LINE, 4)]
    assert lay.place(T("3-4"), T("4-4")) == 5
    assert ports(lay) == sorted(
        [("1-1", LINE, 1), ("3-4", LOW, 3), ("4-4", BRANCH, 4), ("4-4", BRANCH, 4)]
    )
    assert Layout("five-up").place(T("2-2"), None) == 4
    assert Layout("five-up").place(T("0-0"), None) == 0
    lone = Layout("five-up")
    lone.place(T("0-0"), None)
    assert ports(lone) == [("0-0", LINE, 0), ("0-0", LINE, 0)]
    six = Layout("five-up")
    six.place(T("3-6"), None)
    assert six.place(T("6-6"), T("3-6")) == 15


def test_seed_002_single_spinner_then_its_other_line_side() -> None:
    lay = Layout("all-fives")
    assert lay.place(T("3-6"), None) == 9
    assert lay.place(T("6-6"), T("3-6")) == 3 + 6 + 6
    assert lay.place(T("2-6"), T("6-6")) == 3 + 2
    assert lay.is_spinner(T("6-6"))
    # Later doubles are plain: two line sides, no branches.
    lay.place(T("2-2"), T("2-6"))
    lay.place(T("2-5"), T("2-2"))
    assert not lay.is_spinner(T("2-2"))
    assert all(str(t) != "2-2" for t, _k, _v in lay.open_ports())


def test_seed_003_table_and_counting_branch_sides_in_five_up_7() -> None:
    assert Layout("five-up-7").place(T("0-5"), None) == 5
    assert Layout("five-up-7").place(T("5-5"), None) == 10
    lay = Layout("five-up-7")
    lay.place(T("3-6"), None)
    assert lay.place(T("6-6"), T("3-6")) == 15
    # An internal 5-5 counts 10 with both branches free, 5 with one begun.
    lay = Layout("five-up-7")
    lay.place(T("5-5"), None)
    assert lay.place(T("1-5"), T("5-5")) == 10 + 1
    assert lay.place(T("2-5"), T("5-5")) == 1 + 2 + 10
    assert lay.place(T("0-5"), T("5-5")) == 1 + 2 + 5 + 0
    assert lay.total == lay.recount()
    # The same position in five-up: the internal spinner counts nothing.
    fu = Layout("five-up")
    for tile, on in (("5-5", None), ("1-5", "5-5"), ("2-5", "5-5")):
        fu.place(T(tile), T(on) if on else None)
    assert fu.total == 3


def test_branches_open_only_after_both_line_sides() -> None:
    lay = Layout("five-up")
    lay.place(T("4-4"), None)
    lay.place(T("1-4"), T("4-4"))
    assert lay.legal_placements(T("3-4")) == [T("4-4")]
    lay.place(T("3-4"), T("4-4"))
    assert lay.legal_placements(T("0-4")) == [T("4-4")]
    lay.place(T("0-4"), T("4-4"))
    lay.place(T("2-4"), T("4-4"))
    assert lay.legal_placements(T("4-5")) == []
    with pytest.raises(IllegalPlacement):
        lay.place(T("4-5"), T("4-4"))


def test_illegal_placements_fail_loudly() -> None:
    lay = Layout("five-up")
    with pytest.raises(IllegalPlacement):
        lay.place(T("1-2"), T("3-4"))
    lay.place(T("1-2"), None)
    with pytest.raises(IllegalPlacement):
        lay.place(T("1-2"), None)
    with pytest.raises(IllegalPlacement):
        lay.place(T("3-4"), None)
    with pytest.raises(IllegalPlacement):
        lay.place(T("3-4"), T("1-2"))
    with pytest.raises(IllegalPlacement):
        lay.place(T("2-3"), T("5-6"))


def test_can_play_and_playable_mask() -> None:
    lay = Layout("five-up")
    hand = T("5-6").mask | T("0-0").mask
    assert lay.can_play(hand)
    lay.place(T("1-2"), None)
    assert not lay.can_play(hand)
    assert lay.can_play(hand | T("2-3").mask)
    copy = lay.copy()
    copy.place(T("2-5"), T("1-2"))
    assert copy.can_play(hand) and not lay.can_play(hand)
