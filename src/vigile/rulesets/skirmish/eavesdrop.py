"""Eavesdropping: does an intruder overhear the defenders' conversation? (SK-N7).

The seed's noise rule "can also serve to know whether a spy manages to catch a conversation he
overhears from afar": a whispered conversation 6+, a normal one 5+, an animated one 4+, then
distance, partitions and alert as for any noise (SK-N4..SK-N6). The text does not say when
defenders talk, nor what hearing them teaches; the rulings here [R] are this project's:

* [R] Defenders talk where the scenario says so: a guard with ``talks: whisper``,
  ``conversation`` or ``animated`` converses at that volume every turn while alive (guards
  posted together, or a patrol chatting as it walks). The others keep silent.
* [R] Each living intruder tests to overhear each speaker once each turn, with its perception
  pool and its own alert, the roles of the defenders' noise checks reversed (as discovery,
  SK-G3, reverses the sight rules). What it knows of the speaker changes nothing: the seed's
  spy listens to catch *what is said*, and a spy who knows where the speaker stands (scouted,
  SK-G3, or seen) still rolls, at the same difficulty (the volume, then SK-N4..SK-N6: no
  modifier for knowing the place). The talk goes on each turn: each turn is a new test.
* [R] Overhearing catches that turn's words (the GM tells what was said) and gives what
  hearing gives a guard (SK-N10, RULES.md §4): the speaker's presence and direction, not where
  it stands; finding it is still a sight test (SK-G3, SK-G4). It never lowers what the
  intruder already knows (a scouted position stays known).

Nothing the defenders do depends on it: the compiled kernel, which plays the defenders' side
from the intruders' schedule, is unaffected.
"""

from __future__ import annotations

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Verdict
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.common import Roller, TimeOfDay
from vigile.rulesets.skirmish.noise import NoiseEvent, noise_check

RULE = "SK-N7"
VOLUMES = {
    "whisper": NoiseEvent.WHISPER,
    "conversation": NoiseEvent.CONVERSATION,
    "animated": NoiseEvent.ANIMATED,
}
"""The volumes a scenario may give a talking defender, and the noise each is (SK-N7)."""


def may_overhear(state: AwarenessState, *, knows_position: bool) -> bool:
    """Whether an intruder tests to overhear a speaker this turn [SK-N7, R]: always, whatever
    it knows of the speaker (``state``, ``knows_position``): a spy listens for what is said,
    and knowing where the speaker stands neither spares it the roll nor eases it. The turn
    engine and the kernel's table both ask here."""
    del state, knows_position  # [R] what it knows of the speaker does not matter
    return True


def overhear_check(
    rules: RuleData,
    *,
    volume: str,
    distance_cm: float = 0.0,
    barriers: int = 0,
    time: TimeOfDay = TimeOfDay.NIGHT,
    alert: bool = False,
    roller: Roller = Roller(),
    source: FaceSource | None = None,
) -> Verdict:
    """Does the eavesdropper catch the conversation? [SK-N7, then SK-N4..SK-N6]

    The noise check of SK-N7's volume, heard by the intruder; on success the intruder knows
    the speaker's direction (the verdict's state), not its place [R].
    """
    verdict = noise_check(
        rules,
        event=VOLUMES[volume],
        distance_cm=distance_cm,
        barriers=barriers,
        time=time,
        alert=alert,
        roller=roller,
        source=source,
    )
    note = Line("skirmish.eavesdrop.note", RULE)
    return Verdict(**{**verdict.__dict__, "notes": (note, *verdict.notes)})
