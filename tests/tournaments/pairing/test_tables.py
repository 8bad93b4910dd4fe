from tournaments.pairing.tables import assign_tables


def test_without_pins_tables_follow_the_match_order() -> None:
    assert assign_tables([(1, 2), (3, 4), (5, 6)], {}) == ([1, 2, 3], [])


def test_pinned_entries_keep_their_table_and_the_rest_fill_in() -> None:
    tables, notes = assign_tables([(1, 2), (3, 4), (5, 6), (7, 8)], {8: 1, 4: 7})
    assert tables == [2, 7, 3, 1]
    assert notes == []


def test_conflicting_pins_fall_back_in_rank_order() -> None:
    # 6 holds table 2 first; 1 (pinned to 2) and 3 (pinned to 1) then sit at 3's table.
    tables, notes = assign_tables([(6, 9), (1, 3), (4, 5)], {6: 2, 1: 2, 3: 1})
    assert tables == [2, 1, 3]
    assert any("held by an earlier pinned match" in n for n in notes)
    tables, notes = assign_tables([(1, 3)], {1: 4, 3: 1})
    assert tables == [4] and "entry 1 keeps table 4" in notes[0]
