"""Plain-text reports for a terminal: the score table and per-exercise feedback.

Student text (the submission's path, messages with what its code raised, printed or returned)
enters here, through `terminal_text`: the markdown, HTML and JSON reports built on this text
escape it again for their own format.
"""
from __future__ import annotations

from grader.checks.describe import stand_in_note
from grader.checks.results import MISSING, NOT_IMPLEMENTED, PASSED, ExerciseResult, GradeReport

from .escape import terminal_text

STATUS_WORDS = {PASSED: "ok", NOT_IMPLEMENTED: "not implemented yet", MISSING: "not defined yet"}
NOT_GRADED = "not graded"  # every row's status when the submission could not be loaded
STAND_IN_MARK = "*"  # passed with the grader's stand-ins for a broken helper (the table's note)


def points(x: float) -> str:
    return f"{x:g}"


def score_rows(report: GradeReport) -> list[tuple[str, str, str, str]]:
    """(exercise, lecture, score, status) of each exercise, then the total's (its status: the
    percentage): the rows of the score table, and of check()'s HTML table."""
    rows = [(e.id, e.lecture, f"{points(e.score)} / {points(e.max_score)}",
             NOT_GRADED if report.fatal else _status(e)) for e in report.exercises]
    percent = 100 * report.score / report.max_score if report.max_score else 0.0
    return rows + [("total", "", f"{points(report.score)} / {points(report.max_score)}",
                    f"({percent:.0f}%)")]


def stand_in_footnote(report: GradeReport) -> str:
    """The table's note on the exercises passed with stand-ins ("" when there are none)."""
    marked = [e for e in report.exercises if e.status == PASSED and e.stand_ins]
    if not marked or report.fatal:
        return ""
    return f"{STAND_IN_MARK} {stand_in_note(dict.fromkeys(r for e in marked for r in e.stand_ins))}"


def score_table(report: GradeReport) -> str:
    """One line per exercise and a total: what a student reads first."""
    *rows, total = score_rows(report)
    width_id = max([len(r[0]) for r in rows] + [8])
    width_lecture = min(max([len(r[1]) for r in rows] + [7]), 34)
    width_score = max([len(r[2]) for r in rows + [total]] + [5])
    lines = [f"{'exercise':<{width_id}}  {'lecture':<{width_lecture}}  {'score':>{width_score}}"]
    for ident, lecture, score, status in rows:
        lecture = lecture if len(lecture) <= width_lecture else lecture[: width_lecture - 3] + "..."
        lines.append(f"{ident:<{width_id}}  {lecture:<{width_lecture}}  {score:>{width_score}}  "
                     f"{status}")
    lines += ["-" * len(lines[0]), f"{'total':<{width_id}}  {'':<{width_lecture}}  "
                                    f"{total[2]:>{width_score}}  {total[3]}"]
    note = stand_in_footnote(report)
    return "\n".join(lines + ([note] if note else []))


def roots_lines(report: GradeReport) -> list[str]:
    """'fix `patchify` first: ...', once per broken function other exercises depend on, with
    the integration checks that run it named apart (they are not graded again)."""
    lines = []
    integrations = report.integrations()
    for root, ids in report.roots().items():
        count, they, their = ((f"{len(ids)} exercises depend", "they were", "their")
                              if len(ids) != 1 else ("1 exercise depends", "it was", "its"))
        line = (f"fix `{root}` first: {count} on it ({', '.join(ids)}); {they} graded "
                f"with the grader's correct `{root}` standing in for yours, so {their} "
                "points do not depend on it")
        ends = [i for i in integrations.get(root, ()) if i not in ids]
        if ends:
            one = len(ends) == 1
            line += (f"; the integration check{'' if one else 's'} {', '.join(ends)} "
                     f"depend{'s' if one else ''} on it too and run{'s' if one else ''} yours, "
                     "as integration checks are not graded again")
        lines.append(line)
    return lines


def all_passed(part: ExerciseResult, hidden: bool = False, what: str | None = None) -> str:
    """'All checks passed.', saying so when the grader's stand-ins helped; `what` instead of
    "All checks" ("All hidden cases" when `hidden`)."""
    what = what or ("All hidden cases" if hidden else "All checks")
    return f"{what} {stand_in_note(part.stand_ins)}." if part.stand_ins else f"{what} passed."


def _status(exercise: ExerciseResult) -> str:
    if exercise.status == PASSED and exercise.stand_ins:
        return f"{STATUS_WORDS[PASSED]}{STAND_IN_MARK}"
    if exercise.status in STATUS_WORDS:
        return STATUS_WORDS[exercise.status]
    lost, count = sum(not c.passed for c in exercise.checks), len(exercise.checks)
    return f"{lost} of {count} check{'s' if count != 1 else ''} failed"


def exercise_heading(exercise: ExerciseResult) -> str:
    """`patchify: Patches in raster order (Practice 3), 2 / 4`."""
    score = f"{points(exercise.score)} / {points(exercise.max_score)}"
    return f"{exercise.id}: {exercise.title} ({exercise.lecture}), {score}"


def exercise_feedback(exercise: ExerciseResult) -> str:
    """The failed checks of one exercise: what was called, expected versus got, the hint."""
    lines = [exercise_heading(exercise)]
    for check in exercise.checks:
        if check.passed:
            continue
        hidden = " [hidden]" if check.hidden else ""
        lines.append(f"  x {check.name}{hidden} (0 / {points(check.points)})")
        lines += [f"    {line}" for line in terminal_text(check.message).splitlines()]
        if check.hint:
            lines.append(f"    {check.hint_label}hint: {check.hint}")
        if check.printed:
            lines.append("    your code printed:")
            lines += [f"      {line}" for line in terminal_text(check.printed).splitlines()]
    return "\n".join(lines)


def report_header(report: GradeReport) -> list[str]:
    submission = terminal_text(report.submission)
    if report.fatal:  # the one message
        lines = [f"could not grade {submission}: {terminal_text(report.fatal)}"]
    else:
        lines = [f"{submission}: {terminal_text(note)}" for note in report.notes]
        if report.load_problems:
            lines.append(f"while loading {submission}:")
            lines += [f"  {terminal_text(problem)}" for problem in report.load_problems]
    if report.printed and (report.load_problems or report.fatal):
        lines.append("your code printed while loading:")
        lines += [f"  {line}" for line in terminal_text(report.printed).splitlines()]
    if report.spec_errors:
        lines.append("exercise specs with errors (not graded; tell your instructor):")
        lines += [f"  {terminal_text(error)}" for error in report.spec_errors]
    return lines + ([] if report.fatal else roots_lines(report))


def closing_line(report: GradeReport) -> str:
    """'17 exercises graded in 0.5 s: 15 with full marks, 2 with points lost' (`vitgrade
    grade`'s last line, as pytest's summary was): each count reads right as 1 and as many."""
    full = sum(1 for e in report.exercises if e.status == PASSED)
    lost = len(report.exercises) - full
    count = f"{len(report.exercises)} exercise{'s' if len(report.exercises) != 1 else ''}"
    if report.fatal:
        return f"{count} not graded ({report.seconds:.1f} s)"
    return (f"{count} graded in {report.seconds:.1f} s: {full} with full marks, {lost} with "
            f"points lost")


def report_lines(report: GradeReport, feedback: bool = True) -> list[str]:
    """What `vitgrade grade` prints: problems, feedback, the table."""
    lines = report_header(report)
    if feedback and not report.fatal:  # then the header's one message says it all
        for exercise in report.exercises:
            if exercise.status not in (PASSED, NOT_IMPLEMENTED, MISSING):
                lines += [exercise_feedback(exercise), ""]
    lines.append(f"submission: {terminal_text(report.submission)}")
    if report.exercises_folder:
        lines.append(f"exercises: {terminal_text(report.exercises_folder)}")
    return lines + [score_table(report)]
