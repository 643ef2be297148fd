"""`vitgrade merge OUT_1 ... OUT_N --out OUT`: join the outputs of `grade-all --shard K/N`."""
from __future__ import annotations

from grader.commands import fail

NAME = "merge"
HELP = ("join the outputs of `grade-all --shard K/N` into one grades.csv, feedback/ and "
        "report.html")


def add_arguments(parser) -> None:
    parser.add_argument("outputs", metavar="OUT_K", nargs="+",
                        help="the --out folders of the shards")
    parser.add_argument("--out", metavar="DIR", required=True,
                        help="where the merged results, grades.csv, feedback/ and report.html go")


def run(args) -> int:
    """0: merged; 1: merged, but shards or records are missing or students duplicated;
    2: refused (not grade-all outputs, or graded from other specs or by another grader)."""
    from pathlib import Path

    from grader.batch.grade_all import removed_note, similarity_line
    from grader.batch.merge import MergeError, merge
    from grader.report.escape import terminal_text
    from grader.report.safe_files import UnsafePathError

    out = Path(args.out)
    try:
        result = merge([Path(o) for o in args.outputs], out)
    except (MergeError, UnsafePathError) as error:
        return fail(NAME, terminal_text(str(error)))
    for student in result.removed:
        print(terminal_text(removed_note(student)))
    if result.missing_shards:
        print(f"missing shards: {', '.join(result.missing_shards)} (their students are not in "
              "grades.csv)")
    for student, folders in sorted(result.duplicated.items()):
        print(terminal_text(f"duplicated: {student} is in {', '.join(folders)} (the record "
                            "graded last is kept)"))
    if result.missing_records:
        print(terminal_text(f"no record (not graded): {', '.join(result.missing_records)}"))
    print(similarity_line(result.similarity))
    print(f"merged {len(args.outputs)} outputs: {len(result.students)} students; wrote "
          f"{out / 'grades.csv'}, {out / 'feedback'}, {out / 'report.html'}")
    return 0 if result.complete else 1
