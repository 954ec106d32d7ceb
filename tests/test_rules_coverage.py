"""``vigile rules --coverage`` (issue 10): every rule ID is played somewhere (a check, the turn
engine, the compiled simulator, a risk map), is a note, or is a worked example reproduced by a
bundled scenario. The coverage is found by evidence (:mod:`vigile.cli.coverage`,
:mod:`vigile.games.coverage`)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vigile.cli import app
from vigile.cli.coverage import coverage
from vigile.games import coverage as library
from vigile.games.coverage import NOTE_ONLY, coverage_rows
from vigile.io.i18n import Lang, messages
from vigile.scene.loader import load_scenario
from vigile.sim.kernel import available as kernel_available

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "src" / "vigile" / "io" / "locales"
RULES_MD = ROOT.parent / "shared" / "RULES.md"
RULES_MD_IDS = ROOT / "tests" / "fixtures" / "rules_md_ids.txt"
"""The game rule IDs of RULES.md, copied into the repository by ``scripts/sync_rule_ids.py``:
RULES.md is beside the repository, and CI has the repository alone."""

NOT_PLAYED_YET: frozenset[str] = frozenset()
"""Rule IDs played nowhere today (issue 10): their test is an xfail (strict), so it starts
failing, and asks for this list to shrink, as soon as one of them is played."""


NOT_IN_CATALOGUE_YET: frozenset[str] = frozenset()
"""Rule IDs of RULES.md that ``rules.en.toml`` and ``rules.fr.toml`` do not state yet (so
``vigile rules`` and its coverage do not list them): empty this set when they are added."""


def _ids(lang: str) -> list[str]:
    data = tomllib.loads((LOCALES / f"rules.{lang}.toml").read_text("utf-8"))
    return [rule_id for table in data.values() for rule_id in table]


RULE_IDS = _ids("en")


def test_both_languages_list_the_same_rules() -> None:
    assert _ids("fr") == RULE_IDS
    assert len(set(RULE_IDS)) == len(RULE_IDS)


def test_the_catalogue_lists_the_ids_of_rules_md() -> None:
    lines = RULES_MD_IDS.read_text("utf-8").splitlines()
    listed = {line for line in lines if line and not line.startswith("#")}
    assert set(RULE_IDS) <= listed
    assert listed - set(RULE_IDS) == NOT_IN_CATALOGUE_YET


@pytest.mark.skipif(
    not RULES_MD.is_file(),
    reason="no ../shared/RULES.md beside the repository: the copy's freshness is checked where "
    "RULES.md is (a clean clone, as in CI, has only the copy)",
)
def test_the_copy_of_the_ids_of_rules_md_is_fresh() -> None:
    script = ROOT / "scripts" / "sync_rule_ids.py"
    run = subprocess.run(
        [sys.executable, str(script), "--check", str(RULES_MD)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, object]]:
    return coverage_rows(RULE_IDS, {place: set(ids) for place, ids in coverage().items()})


@pytest.mark.parametrize(
    "rule_id",
    [
        pytest.param(
            rule_id,
            marks=pytest.mark.xfail(strict=True, reason="issue 10: not played yet")
            if rule_id in NOT_PLAYED_YET
            else (),
        )
        for rule_id in RULE_IDS
    ],
)
def test_every_rule_is_played_somewhere(rule_id: str, rows: dict[str, dict[str, object]]) -> None:
    row = rows[rule_id]
    assert not row["unplayed"], f"{rule_id} is played nowhere and is not a note"


def test_the_gap_lists_only_known_rules() -> None:
    assert set(RULE_IDS) >= NOT_PLAYED_YET
    assert set(NOTE_ONLY) <= set(RULE_IDS)
    assert not NOT_PLAYED_YET & set(NOTE_ONLY)


def test_a_note_is_played_nowhere(rows: dict[str, dict[str, object]]) -> None:
    """A rule once played leaves the note list: its place says more than the note."""
    assert [rule_id for rule_id in NOTE_ONLY if rows[rule_id]["played"]] == []


@pytest.mark.parametrize("lang", list(Lang))
def test_each_note_has_its_reason_in_both_languages(lang: Lang) -> None:
    found = messages(lang)
    assert [r for r in NOTE_ONLY if f"coverage.note.{r}" not in found] == []


def test_each_place_plays_the_rules_its_chances_come_from() -> None:
    played = coverage()
    assert set(played) == set(library.PLACES)
    assert {"SK-N4", "SK-V3", "SF-4", "DD-3", "DD-20"} <= played["check"]
    assert {"SK-N1", "SK-V2", "SF-4", "DD-5"} <= played["engine"]
    assert {"SK-N4", "SK-V3", "SK-V6"} <= played["riskmap"]
    assert not {rule for rule in played["riskmap"] if rule[:3] != "SK-"}
    if kernel_available():  # the compiled kernels' tables: the raids, the day encounters, d20
        assert {"SK-N4", "SK-N5", "SK-V3", "SK-G5"} <= played["simulator"]
        assert {"DD-3", "DD-5", "DD-20", "SF-4", "SF-5", "SK-S2", "SK-A3"} <= played["simulator"]
    else:  # the engine plays every simulation: its rules are the engine's
        assert played["simulator"] == set()


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed: no kernel plays")
def test_the_simulator_plays_the_rules_of_the_kernels_tables() -> None:
    """The simulator's rules are those its compiled kernels' tables ask: the d20 games', the
    day encounters', and the raid's sight, cry and hearing tables (the nearest case of each
    noise, asked when the tables are built: walls SK-N5, alert SK-N6, the ground SK-N8). The
    simulator's, as ``vigile rules --coverage`` computed them for this process (its
    :func:`~vigile.games.coverage.simulator_rules`, once: building the tables takes seconds)."""
    kernels = library.kernel_rules()
    assert coverage()["simulator"] == kernels
    assert {"DD-3", "DD-5", "DD-6", "DD-20", "DD-21"} <= kernels
    assert {"SF-4", "SF-5", "SF-8", "SF-11"} <= kernels
    assert {"SK-S2", "SK-A3"} <= kernels  # the day kernel's shadowing and ambush rolls
    assert {"SK-N1", "SK-V3", "SK-D3"} <= kernels  # the raid kernel's sight and cry tables
    assert {"SK-N2", "SK-N4", "SK-N5", "SK-N6", "SK-N8"} <= kernels  # its hearing table


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed: no kernel plays")
def test_the_kernels_tables_are_recorded_without_playing() -> None:
    """Building the tables plays no kernel: no compiled entry point (``play_runs``, the raid's
    ``posted_codes``) has a signature in a fresh process (a helper a tables module calls may)."""
    script = (
        "import sys\n"
        "from numba.core.registry import CPUDispatcher\n"
        "from vigile.games.coverage import kernel_rules\n"
        "assert kernel_rules()\n"
        "entries = [f for n, m in list(sys.modules.items()) if n.startswith('vigile.')\n"
        "           for k, f in vars(m).items()\n"
        "           if isinstance(f, CPUDispatcher) and k in ('play_runs', 'posted_codes')]\n"
        "print(len(entries), sum(len(f.signatures) for f in entries))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    found, compiled = map(int, run.stdout.split())
    assert found >= 4  # the raid's, the day's, D&D 3.5's and Starfinder's
    assert compiled == 0


def test_no_kernel_without_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    import vigile.sim.kernel

    monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    assert library.kernel_rules() == set()


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed: no kernel plays")
def test_the_kernels_builders_and_the_names_they_call_the_rules_by() -> None:
    from vigile import registry
    from vigile.games.dnd35.kernel import tables as dnd35_tables
    from vigile.games.skirmish import raid, schedule
    from vigile.games.skirmish.kernel import day
    from vigile.games.skirmish.kernel import tables as raid_tables
    from vigile.rulesets import dnd35
    from vigile.rulesets.dnd35 import traits

    assert library.kernel_builders(registry.get("skirmish").kernel or "") == [day, raid_tables]
    assert library.kernel_builders(registry.get("dnd35").kernel or "") == [dnd35_tables]
    assert {dnd35, traits} <= set(library.looked_up(dnd35_tables))
    assert {raid, schedule} <= set(library.looked_up(raid_tables))  # the engine's board, plans
    assert {"noise_check", "sight_check", "alarm_check"} <= set(library.rule_functions(raid_tables))
    assert "roll_code" not in library.rule_functions(raid_tables)  # the kernel's own


def test_recording_reads_the_rules_of_any_result_and_puts_them_back() -> None:
    """A d20 rule function returns a state and its line, or a dataclass holding them: their
    rule IDs are recorded as a verdict's are."""
    from vigile.rulesets import senses
    from vigile.rulesets.dnd35 import traits

    before = traits.vanished, senses.reach
    with library.recording((traits, senses)) as found:
        assert traits.vanished is not before[0]
        traits.vanished()
        senses.reach(senses.Sense.SIGHT, [senses.Condition.INVISIBLE])
    assert (traits.vanished, senses.reach) == before
    assert found == library.result_rules(traits.vanished()) | library.result_rules(
        senses.reach(senses.Sense.SIGHT, [senses.Condition.INVISIBLE])
    )
    assert "DD-1" in found  # invisibility (the vanishing, the sight it blocks)
    assert library.result_rules((None, 3, "SK-N1")) == set()  # a bare string cites no rule


def test_recording_puts_the_rule_functions_back() -> None:
    from vigile.games.skirmish.kernel import tables

    raid = load_scenario("night-raid")
    before = vars(tables)["sight_check"]
    with library.recording((tables,), library.RULE_FUNCTIONS) as found:
        assert vars(tables)["sight_check"] is not before
        tables.build(raid)
    assert vars(tables)["sight_check"] is before
    assert {"SK-V3", "SK-V4"} <= found


def test_a_worked_example_is_reproduced_by_its_scenario() -> None:
    assert library.example_scenario("SK-N9") == "sk-n9-shoji"
    assert library.example_scenario("SK-N4") is None


def test_rules_coverage_json_and_text() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["rules", "dnd35", "--coverage", "--json", "--lang", "fr"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["dnd35"]
    assert data["dnd35"]["DD-3"]["played"][0] == "check"
    assert data["dnd35"]["DD-18"]["played"] == ["check"]  # the gaze check: no gaze in play
    assert data["dnd35"]["DD-18"]["note"] is None
    text = runner.invoke(app, ["rules", "--coverage"])
    assert text.exit_code == 0, text.output
    assert "  SK-N9  example, reproduced by the scenario sk-n9-shoji" in text.stdout
    assert text.stdout.splitlines()[-1].startswith(f"{len(RULE_IDS)} rules: ")
    french = runner.invoke(app, ["rules", "skirmish", "--coverage", "--lang", "fr"])
    assert "moteur" in french.stdout and "règles :" in french.stdout
