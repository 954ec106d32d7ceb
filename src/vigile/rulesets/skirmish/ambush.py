"""Ambushes: does a party walking into one detect it? (SK-A1..SK-A5)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import AmbushSetting as AmbushSetting
from vigile.checks.verdict import Line, Modifier, Param, Verdict
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.skirmish.common import RULESET, Roller, pool_verdict

OUTCOMES = ("skirmish.ambush.detected", "skirmish.ambush.not_detected")
MAX_SIDE = 1000
MAX_LEVELS = 20


def ambush_check(
    rules: RuleData,
    *,
    setting: AmbushSetting,
    ambushers: int,
    targets: int,
    all_ninjas: bool = False,
    alert: bool = False,
    party: Sequence[int] = (0,),
    cover: bool = True,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the ambushed party detect the ambush? [SK-A1..SK-A5]

    ``party`` lists the skill levels (strategy, cunning, espionage, Yojimbo, poliorcetics) of
    each character who tries; each rolls one die and adds its levels to it (SK-A3 [R]); dice
    are not pooled, and the party detects the ambush if any one succeeds (SK-A2).
    """
    for name, count in (("--ambushers", ambushers), ("--targets", targets)):
        if not 1 <= count <= MAX_SIDE:
            raise InputError(f"{count}: a side has 1 to {MAX_SIDE} characters", where=name)
    if not party:
        raise InputError("the party needs at least one character", where="--party")
    if len(party) > MAX_SIDE:
        raise InputError(f"{len(party)} characters: at most {MAX_SIDE}", where="--party")
    for levels in party:
        if not 0 <= levels <= MAX_LEVELS:
            raise InputError(f"{levels} skill levels: 0 to {MAX_LEVELS}", where="--party")
    if not cover:
        return _no_cover(len(party))
    shared = _shared_modifiers(rules, setting, ambushers, targets, all_ninjas, alert)
    notes = [Line("skirmish.ambush.cover", "SK-A1"), Line("skirmish.ambush.one_die_each", "SK-A3")]
    members = tuple(
        pool_verdict(
            check="ambush",
            modifiers=[*shared, *_skill(levels)],
            roller=Roller(1),
            source=source,
            outcomes=OUTCOMES,
            notes=(),
            state=AwarenessState.OBSERVED,
        )
        for levels in party
    )
    if len(members) == 1:
        member = members[0]
        return _with_sequel(Verdict(**{**member.__dict__, "notes": (*notes, *member.notes)}))
    miss = Fraction(1)
    for member in members:
        miss *= 1 - member.chance
    notes.append(Line("skirmish.ambush.not_pooled", "SK-A2", {"count": len(members)}))
    labelled = tuple(
        Verdict(
            **{
                **m.__dict__,
                "member_label": "skirmish.ambush.member",
                "member_params": {"index": i, "levels": party[i - 1]},
            }
        )
        for i, m in enumerate(members, start=1)
    )
    rolled = all(m.success is not None for m in members)
    success = any(bool(m.success) for m in members) if rolled else None
    group = Verdict(
        ruleset=RULESET,
        check="ambush",
        question="skirmish.ambush.question",
        chance=1 - miss,
        modifiers=tuple(shared),
        notes=tuple(notes),
        difficulty=members[0].difficulty,
        die_bonus=sum(m.value for m in shared if m.kind == "die"),
        dice=len(members),
        automatic=any(m.automatic for m in members),
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
        state=AwarenessState.OBSERVED,
        members=labelled,
    )
    return _with_sequel(group)


def _shared_modifiers(
    rules: RuleData,
    setting: AmbushSetting,
    ambushers: int,
    targets: int,
    all_ninjas: bool,
    alert: bool,
) -> list[Modifier]:
    size = "large" if ambushers > targets else "small"
    params: dict[str, Param] = {"ambushers": ambushers, "targets": targets}
    rule = "SK-A3" if setting is AmbushSetting.COUNTRYSIDE else "SK-A4"
    prefix = "country" if setting is AmbushSetting.COUNTRYSIDE else "town"
    modifiers = [
        from_data(
            rules,
            f"ambush.{prefix}_{size}",
            f"skirmish.ambush.{prefix}_{size}",
            rule,
            kind="base",
            params=params,
        )
    ]
    if alert:
        if setting is AmbushSetting.COUNTRYSIDE:
            modifiers.append(
                from_data(rules, "ambush.country_alert", "skirmish.ambush.alert", "SK-A3")
            )
        else:
            modifiers.append(
                from_data(
                    rules, "ambush.town_alert_die", "skirmish.ambush.alert_die", "SK-A4", kind="die"
                )
            )
    if all_ninjas:
        modifiers.append(from_data(rules, "ambush.all_ninjas", "skirmish.ambush.all_ninjas", rule))
    return modifiers


def _skill(levels: int) -> list[Modifier]:
    if not levels:
        return []
    return [
        Modifier(levels, "skirmish.ambush.skill", "SK-A3", kind="die", params={"levels": levels})
    ]


def _with_sequel(verdict: Verdict) -> Verdict:
    """Add what follows the verdict once rolled: who acts first [SK-A5]."""
    if verdict.success is None:
        return Verdict(
            **{
                **verdict.__dict__,
                "notes": (*verdict.notes, Line("skirmish.ambush.sequel", "SK-A5", sequel=True)),
            }
        )
    key = "skirmish.ambush.simultaneous" if verdict.success else "skirmish.ambush.ambushers_first"
    return Verdict(
        **{**verdict.__dict__, "notes": (*verdict.notes, Line(key, "SK-A5", sequel=True))}
    )


def _no_cover(party_size: int) -> Verdict:
    return Verdict(
        ruleset=RULESET,
        check="ambush",
        question="skirmish.ambush.question",
        chance=Fraction(1),
        notes=(
            Line("skirmish.ambush.no_cover", "SK-A1"),
            Line("skirmish.ambush.simultaneous", "SK-A5", sequel=True),
        ),
        dice=party_size,
        automatic=True,
        success=True,
        outcome=OUTCOMES[0],
        state=AwarenessState.OBSERVED,
    )
