"""pytest hooks of vit-grader: `pytest --student PATH` grades a submission.

Hooks only; each delegates to modules that know nothing about pytest. Without
`--student` every hook returns at once, so ordinary test suites run untouched.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.items import SESSION_KEY, SpecFile
from grader.settings import OPTIONS, STUDENT_HELP, SettingsError, resolve_settings
from grader.spec.locate import SPEC_SUFFIXES

NOTHING_GRADED = 2  # the exit code when the submission could not be loaded (README)
PYTEST_OWN = ("--verbose",)  # flags of OPTIONS that pytest defines itself (and we read)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("vitgrader", "vit-grader: grade a Vision Transformer submission")
    group.addoption("--student", metavar="PATH", help=STUDENT_HELP)
    for option in OPTIONS:  # the same as `vitgrade grade`'s; --verbose is pytest's own
        if option.flag not in PYTEST_OWN:
            group.addoption(option.flag, **option.argparse_kwargs())


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("student"):
        return
    try:
        settings = resolve_settings(config.getoption, config.invocation_params.dir)
    except SettingsError as error:
        raise pytest.UsageError(str(error)) from None
    from grader.session import GradingSession
    from grader.worker import prestart_zygote

    config.stash[SESSION_KEY] = GradingSession(settings, zygote=prestart_zygote())  # the driver


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session):
    """Grade the exercises folder unless the command line named what to collect."""
    grading = session.config.stash.get(SESSION_KEY, None)
    if grading is None or session.config.args_source == pytest.Config.ArgsSource.ARGS:
        return None
    session.perform_collect([str(grading.settings.exercises)])
    return True


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    grading = parent.config.stash.get(SESSION_KEY, None)
    if grading is None or file_path.suffix not in SPEC_SUFFIXES:
        return None
    if file_path.parent.resolve() != Path(grading.settings.exercises).resolve():
        return None
    return SpecFile.from_parent(parent, path=file_path)


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    grading = config.stash.get(SESSION_KEY, None)
    if grading is not None:
        from grader.report.terminal import report_lines

        terminalreporter.section("vit-grader", sep="=", bold=True)
        for line in report_lines(grading.report(), feedback=grading.settings.feedback):
            terminalreporter.write_line(line)
        if grading.settings.verbose:
            from grader.hiding_note import hiding_note

            terminalreporter.write_line(hiding_note(grading.hiding()))


def pytest_sessionfinish(session: pytest.Session) -> None:
    grading = session.config.stash.get(SESSION_KEY, None)
    if grading is None:
        return
    from grader.report.outputs import write_outputs_or_say

    grading.close()  # every process of the submission ends before the results are written
    report = grading.report()
    # a fatal report: as --classroom's "error" and PrairieLearn's "gradable": false say
    if not write_outputs_or_say(report, grading.settings) or report.fatal:
        session.exitstatus = NOTHING_GRADED


def pytest_unconfigure(config: pytest.Config) -> None:
    grading = config.stash.get(SESSION_KEY, None)
    if grading is not None:
        grading.close()


@pytest.hookimpl(tryfirst=True)  # before `-k` deselects: every collected exercise is known
def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    """Exercises run, and report, in the specs' `order`; all of them are the session's catalogue
    (a check is graded around helpers that fail their own checks in other exercises)."""
    grading = config.stash.get(SESSION_KEY, None)
    if grading is not None:
        items.sort(key=lambda item: (getattr(getattr(item, "exercise", None), "order", 10**9),
                                     item.name))
        grading.catalogue = [item.exercise for item in items if hasattr(item, "exercise")]
