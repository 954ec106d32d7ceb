"""The d20 family: what D&D 3.5 and Starfinder share, in one package.

:mod:`.round` is the d20 round both games subclass (a 5-ft grid, a round each turn: the
rules of RULES.md §2 and §4 that the two games read alike), :mod:`.kernel` that round
compiled for the batch simulation, :mod:`.risk` the exact risk map and route of a d20 board.
Each game's plug-in (:mod:`vigile.games.dnd35`, :mod:`vigile.games.starfinder`) supplies its
perception, its blows and its rule functions; nothing here imports either game (the layer
contracts in ``.importlinter`` say so).
"""
