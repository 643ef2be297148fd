"""`vitgrade grade-all SUBMISSIONS_DIR --jobs N --out DIR`: grade a whole class (grader/batch)."""
from __future__ import annotations

import os
import sys

from grader.commands import fail

NAME = "grade-all"
HELP = ("grade every submission in a folder, in parallel; write grades.csv, feedback and a "
        "class report")


def add_arguments(parser) -> None:
    from grader.batch import DEFAULT_ID_PATTERN
    from grader.settings import ATTEMPT, FEEDBACK, LIMIT_OPTIONS

    parser.add_argument("submissions", metavar="SUBMISSIONS_DIR",
                        help="a folder holding a folder or a file per student")
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="where results, grades.csv, feedback/ and report.html go")
    parser.add_argument("--jobs", "-j", metavar="N", type=int, default=os.cpu_count() or 1,
                        help="grading processes in parallel (default: the number of CPUs)")
    parser.add_argument("--force", action="store_true",
                        help="grade everyone again (without it, a result is reused only when "
                             "the submission, the specs and the grader are unchanged)")
    parser.add_argument("--shard", metavar="K/N",
                        help="grade only shard K of N (by a hash of the student id), or 'auto' "
                             "from VITGRADE_SHARD, Slurm or Kubernetes variables; join the "
                             "outputs with `vitgrade merge`")
    parser.add_argument("--id-pattern", metavar="REGEX", default=DEFAULT_ID_PATTERN,
                        help="regular expression taking the student id from a file or folder "
                             "name: its group 'id', else its first group, else the match "
                             f"(default {DEFAULT_ID_PATTERN!r})")
    parser.add_argument("--roster", metavar="CSV",
                        help="whose each entry is: a CSV with the columns 'entry' (a file or "
                             "folder here) and 'id' (the student's id, for their variants and "
                             "record); entries not in it are skipped")
    parser.add_argument("--exercises", metavar="DIR",
                        help="folder of exercise specs (default: the course's installed ones, "
                             "never an exercises/ folder found here)")
    # the same as `vitgrade grade`'s (settings.py); --attempt: a class has no count of its own
    for option in (*LIMIT_OPTIONS, FEEDBACK, ATTEMPT):
        parser.add_argument(option.flag, **option.argparse_kwargs())
    parser.add_argument("--no-progress", action="store_true", help="no progress bar or counter")


def run(args) -> int:
    from pathlib import Path

    from grader.batch.discover import IdPatternError
    from grader.batch.grade_all import BatchOptions, grade_all, similarity_line, summary_line
    from grader.batch.pool import PoolError
    from grader.batch.roster import RosterError, read_roster
    from grader.batch.shards import ShardError, parse_shard
    from grader.report.escape import terminal_text
    from grader.report.safe_files import UnsafePathError
    from grader.settings import SettingsError, resolve_settings

    folder = Path(args.submissions)
    if not folder.is_dir():
        return fail(NAME, f"{folder} is not a folder")
    try:
        # never an exercises/ found here: the class folder is the students' (grader/spec/locate.py)
        settings = resolve_settings({**vars(args), "platform": "grade-all"}.get, Path.cwd(),
                                    discover=False)
        shard = parse_shard(args.shard, os.environ) if args.shard else None
        roster = read_roster(args.roster) if args.roster else None
    except (SettingsError, ShardError, RosterError) as error:
        return fail(NAME, str(error))
    if args.jobs <= 0:
        return fail(NAME, f"--jobs must be positive, not {args.jobs}")
    if not settings.exercises.is_dir():
        return fail(NAME, f"{settings.exercises} is not a folder of exercise specs")
    options = BatchOptions(folder, Path(args.out), settings.for_catalogue(()), jobs=args.jobs,
                           force=args.force, id_pattern=args.id_pattern, roster=roster,
                           progress=not args.no_progress, shard=shard)
    try:
        result = grade_all(options)
    except (IdPatternError, PoolError, UnsafePathError) as error:
        return fail(NAME, str(error))
    except KeyboardInterrupt:
        print("\nvitgrade grade-all: stopped; what was graded is kept, run the same command "
              "again to finish", file=sys.stderr)
        return 130
    for note in result.notes:  # they name files of the class folder
        print(terminal_text(note))
    out = options.out
    if shard is not None:
        print(f"shard {shard}: ", end="")
    print(summary_line(result))
    print(similarity_line(result.similarity))
    if result.unloadable:
        print(f"could not be loaded (zero points): {terminal_text(', '.join(result.unloadable))}")
    if result.not_graded:
        print(f"could not be graded: {terminal_text(', '.join(result.not_graded))} "
              f"(see {out / 'report.html'})")
    print(f"wrote {out / 'grades.csv'}, {out / 'feedback'}{os.sep} "
          f"({len(result.submissions)} files), {out / 'report.html'}")
    return 0
