"""The stream of uniforms every compiled kernel draws from: one uniform a die face,
as the engine's draw interface :class:`vigile.dice.source.UniformFaces` turns it into a face.

A kernel plays a run from a block of uniforms and a small context array: where the stream
stands (``ctx[C_POS]``) and why a run stopped (``ctx[C_STATUS]``, bits). A run that reaches
the end of the block is marked :data:`EXHAUSTED`, to be played again from a refilled block.
How a game rolls its dice from these faces (a skirmish pool against N+, a d20 against a DC)
is the game kernel's, with the rule it follows."""

from __future__ import annotations

import numpy as np

from vigile.sim.kernel.geometry import compiled

C_POS, C_STATUS = 0, 1
"""The context array: where the stream stands, why a run stopped."""
EXHAUSTED = 1
"""A run reached the end of the stream: it is played again once it is refilled."""


@compiled
def draw(uniforms: np.ndarray, ctx: np.ndarray) -> float:
    """The next uniform of the stream; 0.0 and :data:`EXHAUSTED` past its end."""
    pos = ctx[C_POS]
    if pos >= uniforms.shape[0]:
        ctx[C_STATUS] |= EXHAUSTED
        return 0.0
    ctx[C_POS] = pos + 1
    return float(uniforms[pos])


@compiled
def face(sides: int, uniforms: np.ndarray, ctx: np.ndarray) -> int:
    """A die face from the next uniform: ``floor(u * sides) + 1`` (``UniformFaces``)."""
    return int(draw(uniforms, ctx) * sides) + 1
