"""Tile notation, identity and ordering (docs/rules.md, "Tiles and notation")."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummisolve
from rummisolve.errors import RummisolveError, TileNotationError
from rummisolve.tiles import JOKER, Colour, Tile, format_tiles, parse_tiles
from tests.support.strategies import tile_codes

NAMESPACE = {name: getattr(rummisolve, name) for name in ("Tile", "Colour", "JOKER", "RuleSet", "Meld", "Position")}

ALL_TILES = st.one_of(
    st.builds(Tile, st.sampled_from(list(Colour)), st.integers(1, 999)),
    st.just(JOKER),
)


def canonical(code: str) -> str:
    """The canonical spelling of a syntactically valid code, computed independently of tiles.py."""
    text = code.strip().upper()
    if text == "J":
        return "J"
    letter = "O" if text[0] == "Y" else text[0]
    return letter + str(int(text[1:]))


# -- parsing and printing -------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, colour, number",
    [
        ("R7", Colour.RED, 7),
        ("B13", Colour.BLUE, 13),
        ("K1", Colour.BLACK, 1),
        ("O5", Colour.ORANGE, 5),
        ("Y5", Colour.ORANGE, 5),
        ("y12", Colour.ORANGE, 12),
        ("r7", Colour.RED, 7),
        ("k10", Colour.BLACK, 10),
        ("G3", Colour.GREEN, 3),
        ("P20", Colour.PURPLE, 20),
        ("W2", Colour.WHITE, 2),
        ("c9", Colour.CYAN, 9),
        (" R7 ", Colour.RED, 7),
        ("R07", Colour.RED, 7),
    ],
)
def test_parse_examples(code, colour, number):
    tile = Tile.parse(code)
    assert (tile.colour, tile.number) == (colour, number)
    assert not tile.is_joker
    assert tile.value == number
    assert str(tile) == f"{colour.value}{number}"


@pytest.mark.parametrize("code", ["J", "j", " J\n"])
def test_parse_joker(code):
    tile = Tile.parse(code)
    assert tile is JOKER
    assert tile.is_joker
    assert tile.colour is None and tile.number is None
    assert tile.value == 0
    assert str(tile) == "J"


@settings(max_examples=300)
@given(tile_codes())
def test_parse_any_spelling_prints_canonical(code):
    tile = Tile.parse(code)
    assert str(tile) == canonical(code)
    assert Tile.parse(str(tile)) is tile


@settings(max_examples=200)
@given(ALL_TILES)
def test_print_parse_round_trip(tile):
    assert Tile.parse(str(tile)) == tile
    assert Tile.parse(str(tile).lower()) == tile
    assert str(Tile.parse(str(tile))) == str(tile)


@pytest.mark.parametrize(
    "code",
    [
        "",
        " ",
        "R",
        "7",
        "X5",
        "Z13",
        "R0",
        "R00",
        "R-1",
        "R1.5",
        "RR7",
        "R7R",
        "JJ",
        "J1",
        "R 7",
        "R7,",
        "joker",
        "10R",
    ],
)
def test_bad_codes_raise_naming_the_code(code):
    with pytest.raises(TileNotationError) as info:
        Tile.parse(code)
    assert repr(code) in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, RummisolveError)


@pytest.mark.parametrize("code", [7, None, b"R7", ["R7"]])
def test_non_string_code_raises(code):
    with pytest.raises(TileNotationError):
        Tile.parse(code)


def test_unknown_colour_letter_message_lists_colours():
    with pytest.raises(TileNotationError) as info:
        Tile.parse("X5")
    message = str(info.value)
    assert "'X5'" in message and "'X'" in message and "K, B, O, R" in message


@pytest.mark.parametrize(
    "colour, number",
    [(Colour.RED, 0), (Colour.RED, -1), (Colour.RED, True), (Colour.RED, 1.0), (Colour.RED, None), ("R", 7), (None, 7)],
)
def test_bad_constructor_arguments(colour, number):
    with pytest.raises(TileNotationError):
        Tile(colour, number)


def test_parse_tiles_and_format_tiles():
    tiles = parse_tiles("r1, B2  J\tY4")
    assert tiles == (Tile(Colour.RED, 1), Tile(Colour.BLUE, 2), JOKER, Tile(Colour.ORANGE, 4))
    assert format_tiles(tiles) == "R1 B2 J O4"
    assert parse_tiles(["R1", Tile(Colour.BLUE, 2), "j"]) == (Tile(Colour.RED, 1), Tile(Colour.BLUE, 2), JOKER)
    assert parse_tiles("") == ()
    assert parse_tiles([]) == ()
    with pytest.raises(TileNotationError, match="'X9'"):
        parse_tiles("R1 X9 B2")


@settings(max_examples=100)
@given(st.lists(ALL_TILES, max_size=20))
def test_format_parse_round_trip(tiles):
    assert parse_tiles(format_tiles(tiles)) == tuple(tiles)


# -- colours --------------------------------------------------------------------------------


def test_colours():
    assert [c.value for c in Colour] == list("KBORGPWC")
    assert [c.index for c in Colour] == list(range(8))
    for colour in Colour:
        assert colour.letter == colour.value
        assert Colour.from_letter(colour.value) is colour
        assert Colour.from_letter(colour.value.lower()) is colour
        assert eval(repr(colour), NAMESPACE) is colour
    assert Colour.from_letter("Y") is Colour.ORANGE
    assert Colour.from_letter("y") is Colour.ORANGE
    for bad in ("X", "J", "", "RB", None):
        with pytest.raises(TileNotationError):
            Colour.from_letter(bad)


# -- identity, order, repr, pickling --------------------------------------------------------


@settings(max_examples=200)
@given(ALL_TILES)
def test_repr_evaluates_back(tile):
    assert eval(repr(tile), NAMESPACE) is tile


@settings(max_examples=200)
@given(ALL_TILES)
def test_interning_and_hash(tile):
    same = Tile(tile.colour, tile.number)
    assert same is tile
    assert hash(same) == hash(tile)
    assert {tile: 1}[Tile.parse(str(tile))] == 1


@settings(max_examples=200)
@given(ALL_TILES, ALL_TILES)
def test_order_is_colour_then_number_joker_last(a, b):
    def key(t):
        return (8, 0) if t.is_joker else (list(Colour).index(t.colour), t.number)

    assert (a < b) == (key(a) < key(b))
    assert (a <= b) == (key(a) <= key(b))
    assert (a > b) == (key(a) > key(b))
    assert (a >= b) == (key(a) >= key(b))
    assert (a == b) == (key(a) == key(b))
    assert (a != b) == (key(a) != key(b))


def test_sorting_example():
    tiles = parse_tiles("J R1 K13 B2 O1 K2 J R13 Y2")
    assert format_tiles(sorted(tiles)) == "K2 K13 B2 O1 O2 R1 R13 J J"


def test_comparison_with_other_types():
    tile = Tile.parse("R7")
    assert tile != "R7"
    assert tile != 7
    with pytest.raises(TypeError):
        tile < "R8"  # noqa: B015


@settings(max_examples=100)
@given(ALL_TILES)
def test_pickle_and_copy_preserve_identity(tile):
    assert pickle.loads(pickle.dumps(tile)) is tile
    assert copy.copy(tile) is tile
    assert copy.deepcopy(tile) is tile


def test_immutable():
    tile = Tile.parse("R7")
    with pytest.raises(AttributeError):
        tile.number = 8
    with pytest.raises(AttributeError):
        tile.colour = Colour.BLUE
    with pytest.raises(AttributeError):
        JOKER.number = 1
    assert str(tile) == "R7"


def test_tiles_made_at_once_in_many_threads_are_one_object():
    # Equality is identity, so interning must hold even when threads race to make a new tile.
    import threading

    numbers = range(900, 940)  # not made anywhere else in the tests
    barrier = threading.Barrier(8)
    made: list[list[Tile]] = []

    def make() -> None:
        barrier.wait()
        made.append([Tile(Colour.RED, n) for n in numbers])

    threads = [threading.Thread(target=make) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 8
    for tiles in made:
        assert all(a is b for a, b in zip(tiles, made[0]))
        assert tiles == made[0]
