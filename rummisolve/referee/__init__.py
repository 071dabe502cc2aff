"""The referee: is going from a position to a new table a legal turn, and if not, every reason why.

:func:`verify` is independent of the solver (it shares only the tile, rule-set, meld and position
types) and is what every solver answer, engine move and property test is checked against. Its
private modules, by concern: ``_verdict`` (the ruling and its reasons), ``_keys`` and
``_rules_context`` (tiles as keys, what is known per rule set), ``_new_table`` (reading the
proposed table), ``_verify`` (:func:`verify`, step by step, with ``_budget``, its step limit),
``_opening`` (the initial meld) and ``_joker_check`` with ``_joker_matching`` (strict jokers).

>>> from rummisolve.position import Position
>>> p = Position.from_notation(["R1 R2 R3"], "R4 K9 B9 O9", opened=True)
>>> v = verify(p, ["R1 R2 R3 R4"])
>>> bool(v), [str(t) for t in v.played]
(True, ['R4'])
>>> v = verify(p, ["R1 R2 R3 R4", "K9 B9"])
>>> print(v)
illegal turn:
  invalid_meld: table[1] (K9 B9) is not a valid meld: too_short: 2 tile(s); a meld needs at least 3

The rules enforced (docs/rules.md), in the order the reasons are listed:

``bad_tile``
    a new-table tile that does not exist under the rules (unknown code, colour or number out of
    range, a joker when the rules have none). Bad tiles are left out of all tile counting.
``invalid_meld``
    a new-table meld that is not a valid run or group (the :func:`~rummisolve.melds.meld_problem`
    reason code and explanation are in the message; a meld holding a bad tile counts as
    ``not_in_rules``).
``tile_vanished``
    a tile of the old table with fewer copies on the new table (table tiles never leave the table).
``tile_not_on_rack``
    a tile with more copies on the new table than the old table and the rack hold together.
``no_tile_played``
    no rack tile was played.
``no_tile_to_discard``
    only when ``rules.discard`` is on: the turn played every rack tile, leaving none to discard
    (in that variant a player goes out by discarding the last tile, so a play must keep one).
``opening_touched_table`` / ``opening_below_threshold`` / ``joker_in_opening``
    only when ``position.opened`` is false; see "The initial meld" below.
``joker_retrieval``
    only when ``rules.joker_retrieval == "strict"``; see "Jokers on the table" below.

**Twist** (special jokers ``JD``, ``JC``, ``JM``; docs/rules.md, "Twist"). Each special joker is a
tile kind of its own: it is counted like any tile (it never leaves the table, and a ``J`` on the
old table is never accounted for by a ``JD`` on the new one, nor the other way round); every new
meld is classified with the Twist meld rules (the ``invalid_meld`` message carries the reason, e.g.
``jc_at_end``, ``mirror_asymmetric``, ``jd_overfull``); an initial meld is worth what its tiles stand
for (``JD`` its two numbers, ``JC`` its slot's number, ``JM`` 0); ``joker_in_opening`` counts jokers of
every kind. Under ``open_then_manipulate`` the search for the initial meld builds melds with special
jokers too (``_special_melds``). Rule sets with special jokers never have strict retrieval (the rule
set refuses them: what a freed special joker must be replaced by is not defined).

Tiles are counted as multisets (copies of a tile are interchangeable). The tiles the turn played,
``Verdict.played``, are for each tile kind ``min(new - old, rack)`` copies (when positive).

**Unchanged melds.** A new meld is an unchanged copy of an old one when it is a valid meld of the
same kind holding the same tiles: the same multiset for a group, the same sequence for a run.
Old and new melds are paired greedily; equal melds are interchangeable, so greedy pairing is
maximal.

**The initial meld** (``opened`` false). Let the *new melds* be the new-table melds not paired
with an unchanged old meld, and ``played`` as above.

- Without ``open_then_manipulate`` (the official rule): every old meld must be paired with an
  unchanged copy (each old meld that is not gets an ``opening_touched_table`` reason, ``meld``
  None); every new meld must be made of rack tiles only (rack copies are handed out to the new
  melds in order; a new meld that then still holds a tile that is on the old table gets an
  ``opening_touched_table`` reason naming the borrowed tiles). The opening value is the sum of
  the values of the valid new melds (a joker is worth the number it stands for; an invalid
  meld is worth nothing); below ``initial_threshold`` is ``opening_below_threshold``. Nothing
  is checked against the threshold when there are no new melds (nothing was played).
- With ``open_then_manipulate``: the player first lays an initial meld, then may rearrange the
  whole table (the initial meld included) like an opened player. So the turn is a legal opening
  when some of the tiles it played from the rack (``played``) can be split into one or more valid
  melds worth at least ``initial_threshold`` together; which melds those were need not be visible
  on the new table (they may have been extended, split or joined afterwards). The referee
  decides exactly whether the played tiles reach the threshold (a search over packings of them
  into melds, jokers worth what they stand for); if tiles were played and they do not,
  ``opening_below_threshold``. The message gives the most valuable packing, or, where finding it
  would take long (dozens of tiles against a threshold near their worth), a bound below the
  threshold that no packing exceeds. If the played tiles form no valid meld at all and some
  old meld is not kept unchanged, ``opening_touched_table`` (the table was rearranged without an
  initial meld).
- With ``joker_in_initial_meld`` false, a not-opened player may not play a joker from the rack
  on that turn at all (with ``open_then_manipulate`` this includes the melds after the initial
  meld): ``joker_in_opening``.

**Jokers on the table** (``joker_retrieval == "strict"``). Each old-table joker *stands for* a set
of tiles: in a run, the one tile of its slot; in a group, any colour missing from that group
(so in a group of 3, either missing colour). Each old-table joker must be matched to a distinct
new-table joker and either

- *kept*: the new joker can stand for a tile the old one could (the two sets intersect) and
  it stays with its meld: its new meld holds one of the numbered tiles of its old meld, its
  *witness* (a joker in an invalid new meld is not judged here, ``invalid_meld`` already rejects
  the turn). Tiles are counted as copies: the referee sees only how many copies of a tile each
  meld holds, so a new meld's copy of a tile may be taken to be any old copy of it, but each
  physical tile is in one place. So a copy on the new table is the witness of at most one old
  meld, each tile of an old meld (a meld holds one copy of each of its tiles) is the witness in
  at most one new meld (several kept jokers of one old meld in one new meld share it), and a
  witness, being a table tile, is not one of the two rack tiles a freed joker's meld needs.
  E.g. ``K4 B4 O4 J`` (the joker stands for ``R4``) may not become ``K4 B4 O4`` and
  ``R2 R3 J``; ``R2 R3 R4 J R6 R7 R8`` may become ``R2 R3 R4`` and ``J R6 R7 R8 R9``; ``J R4 J``
  may not become ``R1 R2 J R4`` and ``R4 J R6`` (one of the jokers would be with a rack R4); or
- *freed*: a tile it stood for was played from the rack (its exact replacement; each freed joker
  needs its own copy), and the new meld holding the joker also holds at least two further tiles
  played from the rack (not the replacement copies; a played rack joker counts).

New-table jokers not matched to old ones are played rack jokers. Old jokers beyond the number
of new jokers are already ``tile_vanished`` and are not judged again. When several jokers make
the matching ambiguous, the turn is legal if ANY matching, choice of replacement tiles and
choice of witnesses satisfies the rule (the interpretation most favourable to the player); the
played rack tiles are shared out among the freed jokers' melds in every possible way (each copy
counts once).
Where the replacement tile ends up on the table is not checked (copies are interchangeable and the table may be rearranged).
"""

from __future__ import annotations

from rummisolve.referee._new_table import NewTable as NewTable  # a public name (not in __all__)
from rummisolve.referee._verdict import REASONS, Reason, Verdict
from rummisolve.referee._verify import verify

__all__ = ["verify", "Verdict", "Reason", "REASONS"]
