"""Simulation over the same rules, for the designer (DESIGN.md "Simulation").

:mod:`vigile.sim.simulate` plays a scenario many times: by its game's compiled kernel where it
covers the scenario, else game by game in the turn engine; :mod:`vigile.sim.tally` is what it
counts; :mod:`vigile.sim.sweep` varies a scenario over a grid of values;
:mod:`vigile.sim.executors` runs blocks on local worker processes or a Dask cluster. The risk
maps and routes are the skirmish game's (:mod:`vigile.games.skirmish.riskmap`,
:mod:`vigile.games.skirmish.route`).
"""
