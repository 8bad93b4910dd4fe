"""Tiles and seats: parsing, printing, masks."""

import pytest

from scoring.tiles import ALL_MASK, TILES, VALUE_MASK, Tile, TileError, mask_of, mask_pips, tiles_of


def test_there_are_28_distinct_tiles_in_index_order() -> None:
    assert len(TILES) == 28
    assert len({(t.low, t.high) for t in TILES}) == 28
    assert all(t.index == i for i, t in enumerate(TILES))
    assert mask_of(TILES) == ALL_MASK


# The spec's pattern makes each bracket optional on its own, so "[4|6" is read too.
@pytest.mark.parametrize(
    "text", ["6-4", "4-6", "4|6", "6|4", "[4|6]", "[6|4]", "[ 6 - 4 ]", "[4|6", "4-6]"]
)
def test_every_spelling_parses_to_the_canonical_tile(text: str) -> None:
    t = Tile.parse(text)
    assert str(t) == "4-6"
    assert t is Tile.of(4, 6)


@pytest.mark.parametrize("text", ["7-3", "4-", "46", "4-6-1", "", "a-b", "4--6", "-1-2", "[[4|6]"])
def test_text_that_is_not_a_tile_fails_loudly(text: str) -> None:
    with pytest.raises(TileError):
        Tile.parse(text)
    assert issubclass(TileError, ValueError)


def test_value_masks_hold_the_seven_tiles_of_each_value() -> None:
    for v in range(7):
        tiles = tiles_of(VALUE_MASK[v])
        assert len(tiles) == 7
        assert all(v in (t.low, t.high) for t in tiles)


def test_mask_pips_adds_the_pips() -> None:
    hand = [Tile.parse("6-6"), Tile.parse("0-1"), Tile.parse("2-5")]
    assert mask_pips(mask_of(hand)) == 12 + 1 + 7
    assert mask_pips(ALL_MASK) == 168


def test_mask_pips_agrees_with_adding_the_tiles_for_every_single_and_many_random_masks() -> None:
    import random

    rng = random.Random(5)
    masks = [t.mask for t in TILES] + [rng.getrandbits(28) for _ in range(2000)]
    for m in masks:
        assert mask_pips(m) == sum(t.pips for t in tiles_of(m))
