"""`vitgrade watch SUBMISSION`: regrade each time the submission or a spec is saved (Ctrl-C ends
it). This process keeps numpy, the grader, the specs and a zygote loaded, so each save costs only
the regrade, graded as `vitgrade grade` grades (docs/architecture.md, "vitgrade watch").
"""
from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

from grader.commands import fail
from grader.settings import OPTIONS, STUDENT_HELP

NAME = "watch"
HELP = "grade a submission, then again each time it (or a spec) is saved; Ctrl-C stops"
POLL_SECONDS = 0.05  # without inotify, how often the files are looked at
CHECK_SECONDS = 1.0  # with inotify, the files are still looked at this often (an event missed)
CLEAR = "\x1b[H\x1b[2J"


def add_arguments(parser) -> None:
    parser.add_argument("submission", help=STUDENT_HELP)
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the score table")
    for option in OPTIONS:  # grade's, but for the results files and --verbose
        if option.name in ("exercises", "visible_only", "feedback") or option.kind is not None:
            parser.add_argument(option.flag, **option.argparse_kwargs())


def run(args) -> int:
    from dataclasses import replace

    from grader.attempts import counted
    from grader.driver import Driver
    from grader.report.terminal import report_lines
    from grader.settings import SettingsError, resolve_settings
    from grader.worker.zygote_handle import prestart_zygote

    submission = Path(args.submission)
    try:
        settings = resolve_settings(vars(args).get, Path.cwd())
    except SettingsError as error:
        return fail(NAME, str(error))
    exercises = settings.exercises
    if not exercises.is_dir():
        return fail(NAME, f"{exercises} is not a folder of exercise specs")
    signal.signal(signal.SIGINT, _stop)
    zygote, driver, seen = prestart_zygote(), None, None
    changes = _changes([submission.parent, exercises])
    try:
        while True:
            state = _state(submission, exercises)
            if state != seen:
                if driver is None or state[1:] != seen[1:]:  # specs (re)loaded, cases anew
                    if driver is not None:
                        driver.close(zygote=False)  # the reference's processes, if any
                    driver = Driver(settings, zygote)
                    if settings.attempt is None:  # one watch is one attempt, not one per save
                        driver.settings = counted(replace(driver.settings, student=submission),
                                                  driver.catalogue.exercises)
                        settings = replace(settings, attempt=driver.settings.attempt)
                seen = state
                outcome = driver.grade(submission, shown=str(args.submission))
                if outcome.interrupted:
                    raise KeyboardInterrupt
                report = outcome.report
                clear = CLEAR if sys.stdout.isatty() else ""
                print(clear + "\n".join(report_lines(report, feedback=not args.quiet)))
                print(f"\nwatching {args.submission} and {exercises} (Ctrl-C to stop)", flush=True)
            changes()
    except KeyboardInterrupt:
        return 0
    finally:
        if driver is not None:
            driver.close(zygote=False)
        if zygote is not None:
            zygote.close()  # it kills any worker still running


def _stop(signum, frame) -> None:
    """The first ^C stops watching; the ones after it, while the zygote closes, do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _changes(folders: list[Path]):
    """A function that returns when something in `folders` may have changed: at an inotify event
    (a file closed after writing, moved, created, deleted) on Linux, else after POLL_SECONDS.
    The caller compares the files' state either way, so an event too many costs nothing."""
    try:
        from inotify_simple import INotify, flags

        events = INotify()
        mask = (flags.CLOSE_WRITE | flags.MOVED_TO | flags.MOVED_FROM | flags.CREATE
                | flags.DELETE | flags.ATTRIB)
        for folder in {folder.resolve() for folder in folders}:
            events.add_watch(folder, mask)
    except (ImportError, OSError):  # not Linux, no inotify left (fs.inotify.max_user_*), ...
        return lambda: time.sleep(POLL_SECONDS)
    return lambda: events.read(timeout=int(CHECK_SECONDS * 1000))


def _state(submission: Path, exercises: Path) -> tuple:
    """What a save changes: each file's size and modification time (None: missing)."""
    from grader.spec import spec_files

    state = []
    for path in [submission, *spec_files(exercises)]:
        try:
            info = path.stat()
            state.append((str(path), info.st_size, info.st_mtime_ns))
        except OSError:
            state.append((str(path), None, None))
    return tuple(state)
