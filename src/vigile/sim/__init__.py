"""Simulation over the same rules, for the designer (DESIGN.md "Simulation").

:mod:`vigile.sim.simulate` plays a scenario many times: batched, when its game's plug-in has a
batched model (the skirmish raid: :mod:`vigile.games.skirmish.batch`), else game by game in the
turn engine; :mod:`vigile.sim.tally` is what it counts; :mod:`vigile.sim.sweep` varies a
scenario over a grid of values; :mod:`vigile.sim.executors` runs blocks on local worker
processes or a Dask cluster. The risk maps and routes are the skirmish game's
(:mod:`vigile.games.skirmish.riskmap`, :mod:`vigile.games.skirmish.route`).
"""
