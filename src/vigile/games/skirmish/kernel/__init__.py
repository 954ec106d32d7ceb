"""The skirmish game's compiled simulation kernel, imported only by ``simulate``.

:mod:`~vigile.games.skirmish.kernel.tables` lays a raid out as arrays and its checks as tables
built by the rule functions (no numba); :mod:`~vigile.games.skirmish.kernel.play` is the
compiled turn (numba); :mod:`~vigile.games.skirmish.kernel.raid` plays blocks of runs from a
stream of uniforms. Nothing outside ``vigile simulate`` imports this package, so ``vigile
check`` and ``vigile run`` never load numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vigile.registry import KernelCallees

if TYPE_CHECKING:
    from vigile.scene.model import Scenario
    from vigile.sim.tally import Batched


def compiled(scenario: Scenario) -> Batched | None:
    """The compiled model of a skirmish scenario (the plug-in's ``kernel``): a night raid's
    :class:`~vigile.games.skirmish.kernel.raid.KernelRaid`, a day encounter's
    :class:`~vigile.games.skirmish.kernel.day.KernelDay`; None when the scenario is beyond the
    kernel's tables."""
    from vigile.errors import InputError

    try:
        if scenario.encounter is None:
            from vigile.games.skirmish.kernel.raid import KernelRaid

            return KernelRaid.of(scenario)
        from vigile.games.skirmish.kernel.day import KernelDay

        return KernelDay.of(scenario)
    except InputError:
        return None


class RaidCallees(KernelCallees):
    """What a second process compiles of a night raid's kernel while the first builds the
    model (the plug-in's ``kernel_callees``, :func:`vigile.sim.warmup.warm`); nothing for a
    day encounter (its kernel compiles in a few seconds)."""

    def has_callees(self, scenario: Scenario) -> bool:
        """A night raid's kernel has pieces to compile; a day encounter's none."""
        return scenario.encounter is None

    def compile_callees(self, scenario: Scenario) -> None:
        """Compile, into numba's cache, a night raid's pieces
        (:func:`vigile.games.skirmish.kernel.raid.compile_callees`); nothing for a day
        encounter, or a raid beyond the kernel."""
        from vigile.errors import InputError

        if not self.has_callees(scenario):
            return
        from vigile.games.skirmish.kernel.raid import compile_callees as raid_callees

        try:
            raid_callees(scenario)
        except InputError:  # beyond the kernel: nothing to compile
            return


CALLEES = RaidCallees()
"""The skirmish plug-in's ``kernel_callees``."""
