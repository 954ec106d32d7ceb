"""Simulation over the same rules, for the designer (issue 5; DESIGN.md "Simulation").

:mod:`vigile.sim.riskmap` gives the exact chance of being seen (or heard) in one turn at each
point of a board; :mod:`vigile.sim.route` finds the route that minimises the chance of being
detected on that map. The batched Monte Carlo simulator lives beside them.
"""
