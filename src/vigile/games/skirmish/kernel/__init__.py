"""The skirmish game's compiled simulation kernel (issue 14), imported only by ``simulate``.

:mod:`~vigile.games.skirmish.kernel.tables` lays a raid out as arrays and its checks as tables
built by the rule functions (no numba); :mod:`~vigile.games.skirmish.kernel.play` is the
compiled turn (numba); :mod:`~vigile.games.skirmish.kernel.raid` plays blocks of runs from a
stream of uniforms. Nothing outside ``vigile simulate`` imports this package, so ``vigile
check`` and ``vigile run`` never load numba.
"""
