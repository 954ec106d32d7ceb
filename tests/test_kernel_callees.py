"""The night raid's first compile in two processes (``vigile.sim.warmup.warm``): a helper
compiles, into numba's cache, the functions the run's function calls that the model's build does
not (``vigile.games.skirmish.kernel.raid.compile_callees``), with the argument types the run's
function passes them; compiling the run's function then loads them from the cache.

Types that differ from the run's would be compiled for nothing (the run's function would
compile its own): from an empty cache in one process, the helper's part first, then the raid
set up and played, each of those functions keeps the one signature the helper compiled (a
warm cache would load the run's function whole, its callees unasked).

Numba adds a callee's signature when it types a call to it (it compiles the callee for the
call's argument types then, to know what it returns); lowering the caller to machine code adds
none. So the raid's model build (``posted_codes``) and run (``play_runs``) are typed here, with
the very arguments the raid passes them, and not lowered: every signature their compile would
ask of a helped function is asked, in a few seconds instead of half a minute. That the typing
reaches their callees is checked too: it compiles callees the helper did not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = """
import numpy as np
from numba.core import compiler
from numba.core.compiler_machinery import FunctionPass, PassManager, register_pass
from vigile.games.skirmish.kernel import play, raid
from vigile.scene.loader import load_scenario


class Typed(Exception):
    pass


@register_pass(mutates_CFG=False, analysis_only=True)
class StopTyped(FunctionPass):
    _name = "vigile_stop_typed"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        raise Typed  # typed: a compile would lower it next


class TypeOnly(compiler.CompilerBase):
    def define_pipelines(self):  # numba's nopython pipeline, its lowering left out
        passes = compiler.DefaultPassBuilder
        pm = PassManager("typed_only")
        pm.passes.extend(passes.define_untyped_pipeline(self.state).passes)
        pm.passes.extend(passes.define_typed_pipeline(self.state).passes)
        pm.add_pass(StopTyped, "stop once typed")
        pm.finalize()
        return [pm]


def typed_only(dispatcher, then_stop):
    # the dispatcher's own compile (numba.core.dispatcher._FunctionCompiler), typing only
    def call(*args):
        types = tuple(dispatcher.typeof_pyval(a) for a in args)
        flags = compiler.Flags()
        dispatcher.targetdescr.options.parse_as_flags(flags, dispatcher.targetoptions)
        flags = dispatcher._compiler._customize_flags(flags)
        try:
            compiler.compile_extra(
                dispatcher.targetdescr.typing_context, dispatcher.targetdescr.target_context,
                dispatcher.py_func, args=types, return_type=None, flags=flags,
                locals=dispatcher._compiler.locals, pipeline_class=TypeOnly)
        except Typed:
            typed.append(dispatcher.py_func.__name__)
        if then_stop:
            raise Typed
    return call


def signatures():
    return {k: len(f.signatures) for k, f in vars(play).items() if hasattr(f, "signatures")}


typed = []
scenario = load_scenario("night-raid")
raid.compile_callees(scenario)
helped = {f.py_func.__name__: list(f.signatures) for f, _ in raid.callees(
    *(lambda model: (raid.raid_arrays(model), raid.new_state(model)))(raid.build(scenario)))}
before = signatures()
raid._posted_codes = typed_only(play.posted_codes, False)  # the model's build
raid._play_runs = typed_only(play.play_runs, True)  # the run: typed, then nothing is played
try:
    raid.KernelRaid.of(scenario).play(1, np.random.default_rng(0))
except Typed:
    pass
after = signatures()
print("typed", *typed)
print("compiled", sum(after[k] > before[k] for k in after))
for name, signatures in helped.items():
    print(name, len(signatures), len(getattr(play, name).signatures))
"""


def test_the_helper_compiles_the_signatures_the_raids_run_calls(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    counts = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()}
    assert counts.pop("typed") == ["posted_codes", "play_runs"]  # the build's, then the run's
    assert int(counts.pop("compiled")[0]) > 0  # the typing compiled callees the helper did not
    # each helped function: one signature compiled by the helper, none more by the run
    assert counts == {
        name: ["1", "1"] for name in ("_move", "_walls_between", "_blow_noise", "_reaches")
    }
