"""``vigile demo``: a guided tour of real checks, the seed texts' own worked examples.

Each step is a real check through the library, with the dice the example names (the GM's
dice), so the tour shows the same numbers as RULES.md; the last steps roll with the seed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from vigile.checks.verdict import Verdict
from vigile.cli.options import json_text
from vigile.dice.source import FaceSource, GivenFaces, RolledFaces
from vigile.io.i18n import Lang, tr
from vigile.rulesets.data import RuleData, apply_overrides, shipped
from vigile.rulesets.skirmish.alarm import alarm_check
from vigile.rulesets.skirmish.ambush import AmbushSetting, ambush_check
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
from vigile.rulesets.skirmish.shadow import Setting, Task, shadow_check
from vigile.rulesets.skirmish.sight import Attitude, sight_check


@dataclass(frozen=True)
class Step:
    """One stop of the tour: a title key, the rule it illustrates, the check, the dice."""

    title: str
    rule: str
    check: Callable[[RuleData, FaceSource | None], Verdict]
    dice: tuple[int, ...] | None
    example_house_rule: bool = False


EXAMPLE_FLOOR = "[noise.base]\ndeath_floor = 4\n"
"""The house rule that reproduces the seed's own shoji example (SK-N8)."""

STEPS = (
    Step(
        "demo.n9_weapon",
        "SK-N9",
        lambda r, s: noise_check(
            r, event=NoiseEvent.DEATH, surface=Surface.FLOOR, distance_cm=20, barriers=1, source=s
        ),
        (4,),
        example_house_rule=True,
    ),
    Step(
        "demo.n8_table",
        "SK-N8",
        lambda r, s: noise_check(
            r, event=NoiseEvent.DEATH, surface=Surface.FLOOR, distance_cm=20, barriers=1, source=s
        ),
        (4,),
    ),
    Step(
        "demo.n9_door",
        "SK-N9",
        lambda r, s: noise_check(r, event=NoiseEvent.FUMBLE, distance_cm=5, source=s),
        (5,),
    ),
    Step("demo.n9_alarm", "SK-G5", lambda r, s: alarm_check(r, source=s), None),
    Step(
        "demo.v7_terrace",
        "SK-V7",
        lambda r, s: sight_check(r, attitude=Attitude.HIDDEN, distance_cm=3, alert=True, source=s),
        None,
    ),
    Step(
        "demo.v7_garden",
        "SK-V7",
        lambda r, s: sight_check(r, attitude=Attitude.FAST, distance_cm=32, source=s),
        None,
    ),
    Step(
        "demo.s5_follow",
        "SK-S5",
        lambda r, s: shadow_check(
            r, task=Task.FOLLOW, setting=Setting.CROWD, roller=Roller(2), source=s
        ),
        (2, 6),
    ),
    Step(
        "demo.s5_notice",
        "SK-S5",
        lambda r, s: shadow_check(
            r, task=Task.NOTICE, setting=Setting.CROWD, untrained=True, source=s
        ),
        None,
    ),
    Step(
        "demo.s6_follow",
        "SK-S6",
        lambda r, s: shadow_check(
            r, task=Task.FOLLOW, setting=Setting.CROWD, target_hiding=True, untrained=True, source=s
        ),
        (6,),
    ),
    Step(
        "demo.s6_notice",
        "SK-S6",
        lambda r, s: shadow_check(
            r, task=Task.NOTICE, setting=Setting.CROWD, alert=True, roller=Roller(2), source=s
        ),
        (2, 6),
    ),
    Step(
        "demo.a6_ambush",
        "SK-A6",
        lambda r, s: ambush_check(
            r, setting=AmbushSetting.TOWN, ambushers=1, targets=1, all_ninjas=True, source=s
        ),
        (3,),
    ),
)


def run_demo(lang: Lang, seed: int, *, as_json: bool = False) -> None:
    """Play the tour: the examples with their own dice, the rest rolled from ``seed``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    base = shipped("skirmish")
    example = apply_overrides(base, EXAMPLE_FLOOR, "example")
    out: list[dict[str, object]] = []
    lines: list[str] = [tr("demo.intro", lang)]
    for number, step in enumerate(STEPS, start=1):
        rules = example if step.example_house_rule else base
        source: FaceSource = GivenFaces(step.dice) if step.dice else RolledFaces(rng)
        verdict = step.check(rules, source)
        title = f"{number}. {tr(step.title, lang)} [{step.rule}]"
        if as_json:
            from vigile.io.json_out import verdict_json

            out.append({"step": number, "title": title, "verdict": verdict_json(verdict, lang)})
            continue
        from vigile.io.text import explain

        lines += ["", title, *("   " + line for line in explain(verdict, lang))]
    if as_json:
        sys.stdout.write(json_text(out) + "\n")
        return
    lines += ["", tr("demo.outro", lang)]
    sys.stdout.write("\n".join(lines) + "\n")
