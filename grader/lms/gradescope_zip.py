"""The Gradescope autograder zip (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
`setup.sh` and `run_autograder` at the archive's root, as Gradescope requires, and beside them
`vit-grader/`, the installable grader with the course's full specs, hidden checks included: the
zip is for instructors, never for students. docs/lms.md ("The autograder zip") says what each
script does; both take the /autograder root from $VITGRADE_AUTOGRADER_ROOT when it is set (tests).
"""
from __future__ import annotations

import os
import stat
import tempfile
import zipfile
from pathlib import Path

from grader.checks.variants import SECRET_FILE
from grader.spec import spec_files

from .project_copy import copy_course_file, copy_spec_data, write_project

PROJECT = "vit-grader"

# Where the container refuses namespaces, only permissions keep the secrets (docs/security.md):
# the source folder (specs, compiled data, the grader run_autograder imports) and the installed
# package's reference and specs become root's alone. $SOURCE and $PYTHON are set before.
LOCK_SECRETS = """# Student code must never read the specs, the compiled data or the reference:
# make them root's.
SITE="$(cd / && "$PYTHON" -c 'import grader, os; print(os.path.dirname(grader.__file__))')"
for secret in "$SOURCE" "$SITE/reference" "$SITE/_exercises" "$SITE/_compiled"; do
    if [ -e "$secret" ]; then chmod -R go-rwx "$secret"; fi
done
"""

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image (apt-get update has run).
# It installs Python >= 3.11 and this grader, with its dependencies, into $ROOT/venv.
set -euo pipefail
ROOT="${VITGRADE_AUTOGRADER_ROOT:-/autograder}"
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends python3 python3-venv python3-pip
PY=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    # Ubuntu 22.04 ships 3.10: take 3.11 from its universe (or choose the Ubuntu 24.04 base image).
    apt-get install -y --no-install-recommends python3.11 python3.11-venv
    PY=python3.11
fi
"$PY" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet --upgrade pip
"$ROOT/venv/bin/python" -m pip install --quiet "$SOURCE/vit-grader"
"$ROOT/venv/bin/vitgrade" validate "$SOURCE/vit-grader/exercises"
PYTHON="$ROOT/venv/bin/python"
""" + "{lock}"

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission, in /autograder; it must leave results/results.json.
# The grading itself is `python -m grader.lms.gradescope_autograder` (grader/lms/ in vit-grader).
ROOT="${VITGRADE_AUTOGRADER_ROOT:-/autograder}"
PY="${VITGRADE_PYTHON:-$ROOT/venv/bin/python}"
[ -x "$PY" ] || PY=python3
# Run from the grader's project folder, never the submission's: `python -m` puts the working folder
# on sys.path, and a student's numpy.py must not be what the grading process imports.
cd "$ROOT/source/vit-grader" || exit 1
exec "$PY" -m grader.lms.gradescope_autograder --root "$ROOT" \\
    --exercises "$ROOT/source/vit-grader/exercises" "$@"  # "$@": vitgrade grade's options
"""


def build_gradescope_zip(out: Path, exercises: Path) -> list[str]:
    """Write the autograder zip to `out`; returns the names it holds."""
    exercises = Path(exercises)
    with tempfile.TemporaryDirectory(prefix="vitgrade-export-") as tmp:
        tree = Path(tmp)
        specs = write_project(tree / PROJECT)
        for spec in spec_files(exercises):
            (specs / spec.name).write_bytes(spec.read_bytes())
        copy_spec_data(exercises, specs)
        copy_course_file(exercises, specs)
        if (exercises / SECRET_FILE).is_file():  # which variant each student grades
            (specs / SECRET_FILE).write_bytes((exercises / SECRET_FILE).read_bytes())
        (tree / "setup.sh").write_text(SETUP_SH.replace("{lock}", LOCK_SECRETS), encoding="utf-8")
        (tree / "run_autograder").write_text(RUN_AUTOGRADER, encoding="utf-8")
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        names, tmp = [], out.with_name(f".{out.name}.tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in tree.rglob("*") if p.is_file()):
                # relative to the tree: the scripts are at the archive's root
                name = path.relative_to(tree).as_posix()
                # a fixed date: the same specs give the same zip
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                mode = 0o755 if name in ("setup.sh", "run_autograder") else 0o644
                info.external_attr = (stat.S_IFREG | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
                names.append(name)
        os.replace(tmp, out)
        return names
