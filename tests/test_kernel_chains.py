"""The pieces of one straight wall as one chain, and lists of walls as entries (issue 14):
:mod:`vigile.sim.kernel.grid`'s ``chains`` and ``entries``, read back by the kernel's
:func:`vigile.sim.kernel.geometry.decode`. What they change in the kernel's answers (nothing)
is tested against the original geometry in ``test_kernel_geometry.py`` and, game against
game, in the engine-versus-kernel tests with walls in pieces."""

from __future__ import annotations

import numpy as np
import pytest

from vigile.sim.kernel import grid

# a wall from (0, 10) to (50, 10) cut in five pieces, a lone wall, then a map's border
X1 = np.array([0.0, 10.0, 20.0, 30.0, 40.0, 5.0, 0.0, 60.0, 60.0, 0.0])
Y1 = np.array([10.0, 10.0, 10.0, 10.0, 10.0, 20.0, 0.0, 0.0, 40.0, 40.0])
X2 = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 5.0, 60.0, 60.0, 0.0, 0.0])
Y2 = np.array([10.0, 10.0, 10.0, 10.0, 10.0, 30.0, 0.0, 40.0, 40.0, 0.0])
WALLS = 6


def test_a_wall_in_pieces_is_one_chain_with_its_box_after_the_segments() -> None:
    chained = grid.chains(X1, Y1, X2, Y2, WALLS)
    assert chained.chain.tolist() == [0, 0, 0, 0, 0, -1, -1, -1, -1, -1]
    assert chained.box.tolist() == [10]  # after the ten segments
    corners = (chained.x1[10], chained.y1[10], chained.x2[10], chained.y2[10])
    assert corners == (0.0, 10.0, 50.0, 10.0)
    assert np.array_equal(chained.x1[:10], X1)  # the board's own segments unchanged


def test_the_border_joins_no_chain_though_its_sides_meet() -> None:
    """The border's four sides meet end to end, but turn: no chain; nor does a wall that
    turns, nor one that starts where the last ended but goes back."""
    x1, y1 = np.array([0.0, 10.0, 10.0]), np.array([0.0, 0.0, 10.0])
    x2, y2 = np.array([10.0, 10.0, 0.0]), np.array([0.0, 10.0, 10.0])
    assert not grid.straight_joins(x1, y1, x2, y2, 3).any()
    back_x1, back_x2 = np.array([0.0, 10.0]), np.array([10.0, 0.0])
    assert not grid.straight_joins(back_x1, np.zeros(2), back_x2, np.zeros(2), 2).any()


def test_fewer_pieces_than_a_chain_holds_stay_walls_alone() -> None:
    few = grid.SHORTEST_CHAIN - 1
    chained = grid.chains(X1[1 : 1 + few], Y1[1 : 1 + few], X2[1 : 1 + few], Y2[1 : 1 + few], few)
    assert (chained.chain == -1).all() and chained.box.size == 0


def test_pieces_out_of_order_along_the_axis_make_no_chain() -> None:
    """The kernel's binary search needs each piece further along the chain's axis than the
    last (``geometry.chain_span``): a chain that is not so is not kept."""
    ordered = grid._in_order(X1[:5], Y1[:5], X2[:5], Y2[:5])
    shuffled = [0, 2, 1, 3, 4]
    assert ordered
    assert not grid._in_order(X1[shuffled], Y1[shuffled], X2[shuffled], Y2[shuffled])
    backwards = slice(4, None, -1)  # the pieces the other way round, each reversed: in order
    assert grid._in_order(X2[backwards], Y2[backwards], X1[backwards], Y1[backwards])


def test_entries_name_each_run_of_a_chain_once_and_decode_back() -> None:
    pytest.importorskip("numba")
    from vigile.sim.kernel.geometry import decode

    chained = grid.chains(X1, Y1, X2, Y2, WALLS)
    # three lists: pieces 1-3 and the lone wall; piece 4 alone; the border, then pieces 0-1
    members = np.array([1, 2, 3, 5, 4, 6, 7, 0, 1])
    bounds, listed = grid.entries(np.array([0, 4, 5, 9]), members, chained)
    assert bounds.tolist() == [0, 2, 3, 6]
    assert listed[1] == 5 and listed[2] == 4 and listed[3:5].tolist() == [6, 7]
    assert decode(int(listed[0])) == (10, 1, 3)
    assert decode(int(listed[5])) == (10, 0, 2)


def test_a_board_too_large_to_code_takes_no_chains(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of a code's three numbers has CODE_BITS bits: beyond, the lists keep every wall
    alone (the same answers, as before chains)."""
    monkeypatch.setattr(grid, "CODE_MASK", 10)  # ten segments and one chain: eleven
    chained = grid.chains(X1, Y1, X2, Y2, WALLS)
    assert (chained.chain == -1).all() and chained.x1.size == 10
    _, listed = grid.entries(np.array([0, 5]), np.arange(5), chained)
    assert listed.tolist() == [0, 1, 2, 3, 4]
