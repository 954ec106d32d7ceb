"""Shadowing by day: following someone, and noticing that one is followed (SK-S1..SK-S4)."""

from __future__ import annotations

from enum import StrEnum

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Mount as Mount
from vigile.awareness.vocabulary import Setting as Setting
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.skirmish.common import (
    Roller,
    bonus_modifier,
    check_roller,
    pool_verdict,
    settled_verdict,
)


class Task(StrEnum):
    FOLLOW = "follow"
    NOTICE = "notice"


OUTCOMES = {
    Task.FOLLOW: ("skirmish.shadow.kept_up", "skirmish.shadow.lost"),
    Task.NOTICE: ("skirmish.shadow.noticed", "skirmish.shadow.not_noticed"),
}


def shadow_check(
    rules: RuleData,
    *,
    task: Task,
    setting: Setting,
    target_hiding: bool = False,
    target: Mount | None = None,
    follower: Mount | None = None,
    discreet: bool = False,
    alert: bool = False,
    untrained: bool = False,
    follower_fumbled: bool = False,
    roller: Roller = Roller(),
    source: FaceSource | None = None,
) -> Verdict:
    """One round of shadowing, rolled in secret before the umpire [SK-S1..SK-S4].

    ``follow``: does the follower keep up? ``target_hiding`` is the followed character trying
    to hide, ``target`` whether it rides. ``notice``: does the followed character notice? It
    is harder when the follower is ``discreet`` (hides whenever possible), easier when the
    noticer is on ``alert`` or the follower ``follower_fumbled`` this round. ``untrained``: no
    dice in a shadowing skill, +1 difficulty (SK-S3).
    """
    check_roller(rules, roller)
    _refuse_contradictions(
        task,
        setting,
        target_hiding=target_hiding,
        target=target,
        follower=follower,
        discreet=discreet,
        alert=alert,
        follower_fumbled=follower_fumbled,
    )
    outcomes = OUTCOMES[task]
    question = f"skirmish.shadow.question_{task.value}"
    notes = [Line("skirmish.shadow.secret", "SK-S1")]
    if task is Task.FOLLOW:
        modifiers = _follow(rules, setting, target_hiding, target)
    else:
        modifiers = _notice(rules, setting, follower, discreet, alert, follower_fumbled)
    if modifiers is None:  # a rider is followed without a roll
        notes.append(Line("skirmish.shadow.rider_automatic", "SK-S4"))
        return settled_verdict(
            check="shadow",
            seen=True,
            notes=notes,
            outcomes=outcomes,
            roller=roller,
            state=AwarenessState.OBSERVED,
            question=question,
        )
    if untrained:
        modifiers.append(from_data(rules, "shadow.untrained", "skirmish.shadow.untrained", "SK-S3"))
    modifiers += bonus_modifier(roller)
    return pool_verdict(
        check="shadow",
        modifiers=modifiers,
        roller=roller,
        source=source,
        outcomes=outcomes,
        notes=notes,
        state=AwarenessState.OBSERVED,
        question=question,
    )


def _follow(
    rules: RuleData, setting: Setting, target_hiding: bool, target: Mount | None
) -> list[Modifier] | None:
    if setting is Setting.CROWD:
        if target_hiding:
            return [
                from_data(
                    rules,
                    "shadow.crowd_follow_hiding",
                    "skirmish.shadow.crowd_follow_hiding",
                    "SK-S2",
                    kind="base",
                )
            ]
        return [
            from_data(
                rules, "shadow.crowd_follow", "skirmish.shadow.crowd_follow", "SK-S2", kind="base"
            )
        ]
    if target is Mount.RIDER:
        return None
    modifiers = [
        from_data(
            rules,
            "shadow.country_follow_pedestrian",
            "skirmish.shadow.country_follow_pedestrian",
            "SK-S4",
            kind="base",
        )
    ]
    if target_hiding:
        modifiers.append(
            from_data(rules, "shadow.discreet", "skirmish.shadow.target_hiding", "SK-S4")
        )
    return modifiers


def _notice(
    rules: RuleData,
    setting: Setting,
    follower: Mount | None,
    discreet: bool,
    alert: bool,
    fumbled: bool,
) -> list[Modifier]:
    if setting is Setting.CROWD:
        if fumbled:
            return [
                from_data(
                    rules,
                    "shadow.crowd_notice_fumbled",
                    "skirmish.shadow.crowd_notice_fumbled",
                    "SK-S2",
                    kind="base",
                )
            ]
        if alert:
            return [
                from_data(
                    rules,
                    "shadow.crowd_notice_alert",
                    "skirmish.shadow.crowd_notice_alert",
                    "SK-S2",
                    kind="base",
                )
            ]
        return [
            from_data(
                rules, "shadow.crowd_notice", "skirmish.shadow.crowd_notice", "SK-S2", kind="base"
            )
        ]
    mount = follower or Mount.PEDESTRIAN
    modifiers = [
        from_data(
            rules,
            f"shadow.country_notice_{mount.value}",
            f"skirmish.shadow.country_notice_{mount.value}",
            "SK-S4",
            kind="base",
        )
    ]
    if discreet:
        modifiers.append(from_data(rules, "shadow.discreet", "skirmish.shadow.discreet", "SK-S4"))
    if alert:
        modifiers.append(
            from_data(
                rules, "shadow.country_alert_die", "skirmish.shadow.alert_die", "SK-S4", kind="die"
            )
        )
    return modifiers


def _refuse_contradictions(
    task: Task,
    setting: Setting,
    *,
    target_hiding: bool,
    target: Mount | None,
    follower: Mount | None,
    discreet: bool,
    alert: bool,
    follower_fumbled: bool,
) -> None:
    """Flags that belong to the other task or setting are mistakes: say which, and why."""
    if task is Task.FOLLOW:
        for flag, given in (
            ("--alert", alert),
            ("--discreet", discreet),
            ("--follower-fumbled", follower_fumbled),
            ("--follower", follower is not None),
        ):
            if given:
                raise InputError(
                    "concerns noticing a follower; use it with --task notice", where=flag
                )
    else:
        for flag, given in (("--target-hiding", target_hiding), ("--target", target is not None)):
            if given:
                raise InputError("concerns following; use it with --task follow", where=flag)
    if setting is Setting.CROWD:
        for flag, given in (
            ("--target", target is not None),
            ("--follower", follower is not None),
            ("--discreet", discreet),
        ):
            if given:
                raise InputError(
                    "is a countryside rule (SK-S4); use it with --setting countryside", where=flag
                )
    elif follower_fumbled:
        raise InputError(
            "is a crowd rule (SK-S2); use it with --setting crowd", where="--follower-fumbled"
        )
