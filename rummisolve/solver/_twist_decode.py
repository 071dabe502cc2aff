"""Twist pieces back to melds: the rack's special jokers played, and each piece as tiles in play
order, colour-change segments joined into runs at their ``JC`` or through joker pads (used by
:mod:`rummisolve.solver._decode`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummisolve.errors import DecodeError
from rummisolve.rules import RuleSet
from rummisolve.solver._slots import JOKER_SLOT
from rummisolve.solver._twist import CHANGE, DOUBLE, KIND, MIRROR, PAD, PADS, Piece, TwistModel, pad_host
from rummisolve.tiles import COLOUR_CHANGE_JOKER, DOUBLE_JOKER, JOKER, MIRROR_JOKER, Tile

if TYPE_CHECKING:
    from rummisolve.solver._candidates import Catalogue
    from rummisolve.solver._layout import PositionModel

__all__ = ["PieceCopy", "specials_played", "twist_melds"]

PieceCopy = tuple[Piece, list[list[Any]]]


_SPECIAL_TILES = (DOUBLE_JOKER, COLOUR_CHANGE_JOKER, MIRROR_JOKER)


def specials_played(
    twist: TwistModel, built: PositionModel, chosen: list[tuple[Piece, int]], sol: Sequence[int]
) -> list[Tile]:
    """The rack's special jokers played."""
    out: list[Tile] = []
    for i, tile in enumerate(_SPECIAL_TILES):
        if built.kept_by_rule:
            n = sum(c * (piece.doubles, piece.changes, piece.mirrors)[i] for piece, c in chosen)
        else:
            var = twist.played.get(i)
            n = 0 if var is None else sol[var]
        if not 0 <= n <= twist.rack_specials[i]:
            raise DecodeError(f"{n} {tile} played of {twist.rack_specials[i]}")
        out.extend([tile] * n)
    return out


def twist_melds(cat: Catalogue, copies: list[PieceCopy]) -> list[list[Tile]]:
    """Each Twist piece as tiles in play order; colour-change segments joined into runs at their
    ``JC``, each paired with a neighbour of another colour, or continued by joker pads of their own
    colour."""
    melds: list[list[Tile]] = []
    pieces: list[tuple[Piece, list[Tile]]] = []
    for piece, slots in copies:
        filled = iter(slots)
        tiles: list[Tile] = []
        for what, k in piece.elements:
            if what == KIND:
                _, how = next(filled)
                tiles.append(JOKER if how is JOKER_SLOT else cat.kinds[k])
            elif what == DOUBLE:
                tiles.append(DOUBLE_JOKER)
            elif what == PAD:
                tiles.append(JOKER)
            elif what == MIRROR:
                tiles.append(MIRROR_JOKER)
            elif what == CHANGE:
                tiles.append(COLOUR_CHANGE_JOKER)
        if piece.shape in _CHAIN_SHAPES:
            pieces.append((piece, tiles))
        else:
            melds.append(tiles)
    follower = _followers([piece for piece, _ in pieces], cat.rules)
    led = {j for j, _ in follower.values()}
    for i in range(len(pieces)):
        if i in led:
            continue
        if pieces[i][0].shape not in ("left", "head"):
            raise DecodeError(f"a colour-change run starts with a {pieces[i][0].shape} piece")
        run = list(pieces[i][1])
        at = i
        while at in follower:
            at, change = follower[at]
            if change:
                run.append(COLOUR_CHANGE_JOKER)
            run.extend(pieces[at][1])
        melds.append(run)
    return melds


_CHAIN_SHAPES = ("left", "right", "middle", *PADS)


def _followers(pieces: list[Piece], rules: RuleSet) -> dict[int, tuple[int, bool]]:
    """Piece index -> the piece that follows it in its run and whether a ``JC`` stands between."""
    ends: dict[tuple[int, bool], list[int]] = {}
    starts: dict[tuple[int, bool], list[int]] = {}
    for at, piece in enumerate(pieces):
        if piece.shape in ("left", "middle", "before_change"):
            ends.setdefault(piece.change_after, []).append(at)
        if piece.shape in ("right", "middle", "after_change"):
            starts.setdefault(piece.change_before, []).append(at)
    follower: dict[int, tuple[int, bool]] = {}

    def continue_with(pads: list[int], side: list[int], pad_first: bool) -> None:
        for pad in pads:  # a pad continues a piece of its own colour, taken off the JC's pairing
            colour = pieces[pad].colour
            at = next((i for i in side if pieces[i].colour == colour and pad_host(pieces[i], rules)), None)
            if at is None:
                raise DecodeError(f"a joker pad at {pieces[pad].first} continues nothing")
            side.remove(at)
            follower[pad if pad_first else at] = (at if pad_first else pad, False)

    for place in set(ends) | set(starts):
        before, after = list(ends.get(place, [])), list(starts.get(place, []))
        n, wraps = place
        pads = [i for i, p in enumerate(pieces) if p.wraps == wraps]
        continue_with([i for i in pads if pieces[i].shape == "before_change" and pieces[i].first == n], before, False)
        continue_with([i for i in pads if pieces[i].shape == "after_change" and pieces[i].last == n], after, True)
        pairing = _pair_colours([pieces[i].colour for i in before], [pieces[j].colour for j in after])
        if pairing is None:
            raise DecodeError(f"colour-change segments at {place} cannot be paired")
        for i, j in zip(before, (after[p] for p in pairing)):
            follower[i] = (j, True)
    for shape in ("tail", "head"):  # ascending slots: a tail may follow a tail
        pads = sorted((i for i, p in enumerate(pieces) if p.shape == shape), key=lambda i: pieces[i].first)
        if shape == "head":
            pads.reverse()
        for pad in pads:
            p = pieces[pad]
            taken = set(follower) if shape == "tail" else {j for j, _ in follower.values()}
            wanted = ("right", "tail") if shape == "tail" else ("left", "head")
            host = next(
                (
                    i
                    for i, q in enumerate(pieces)
                    if q.shape in wanted
                    and q.colour == p.colour
                    and q.wraps == p.wraps
                    and i not in taken
                    and pad_host(q, rules)
                    and (q.last == p.first - 1 if shape == "tail" else q.first == p.last + 1)
                ),
                None,
            )
            if host is None:
                raise DecodeError(f"a joker {shape} at {p.first} continues nothing")
            follower[host if shape == "tail" else pad] = (pad if shape == "tail" else host, False)
    return follower


def _pair_colours(before: list[int], after: list[int]) -> list[int] | None:
    """A permutation ``p`` with ``before[i] != after[p[i]]`` for all ``i`` (``None`` if none)."""
    from itertools import permutations

    if len(before) != len(after):
        return None
    for order in permutations(range(len(after))):
        if all(b != after[j] for b, j in zip(before, order)):
            return list(order)
    return None
