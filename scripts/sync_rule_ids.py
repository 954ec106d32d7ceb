"""Copy the game rule IDs of RULES.md into ``tests/fixtures/rules_md_ids.txt``.

RULES.md lives beside the repository (``../shared/RULES.md``), not in it, and CI runs on a
clean clone of the repository alone: ``tests/test_rules_coverage.py`` checks the rules
catalogue against this copy, which CI has. Run this when RULES.md gains, loses or renames a
rule, read the diff, commit. ``--check`` changes nothing and exits 1 when the copy is stale.

Usage: ``.venv/bin/python scripts/sync_rule_ids.py [--check] [PATH/TO/RULES.md]``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT.parent / "shared" / "RULES.md"
COPY = ROOT / "tests" / "fixtures" / "rules_md_ids.txt"
RULE = re.compile(r"^- \*\*((?:SK|SF|DD)-[A-Z]?\d+)\b", flags=re.MULTILINE)
"""A rule of a game, as RULES.md states it: a bullet opening on its bold ID (``- **SK-N4``);
the live-play rules (``LP-``) are no game's and are not in the rules catalogue."""
HEADER = (
    "# The game rule IDs of RULES.md (SK-, SF-, DD-), in its order: a copy made by\n"
    "# scripts/sync_rule_ids.py, for tests/test_rules_coverage.py. Do not edit by hand.\n"
)


def copy_text(rules_md: str) -> str:
    """The copy's text: the header, then one ID a line."""
    return HEADER + "".join(f"{rule_id}\n" for rule_id in RULE.findall(rules_md))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    source = Path(paths[0]) if paths else RULES_MD
    wanted = copy_text(source.read_text("utf-8"))
    if COPY.is_file() and COPY.read_text("utf-8") == wanted:
        return 0
    if check:
        print(f"{COPY.relative_to(ROOT)} is stale: run scripts/sync_rule_ids.py", file=sys.stderr)
        return 1
    COPY.write_text(wanted, "utf-8")
    print(f"wrote {COPY.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
