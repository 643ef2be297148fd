"""pytest hooks of vit-grader: `pytest --student PATH` grades a submission.

Hooks only; each delegates to modules that know nothing about pytest. Without
`--student` every hook returns at once, so ordinary test suites run untouched.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from grader.items import DRIVER_KEY, SESSION_KEY, SpecFile
from grader.settings import OPTIONS, STUDENT_HELP, SettingsError, resolve_settings
from grader.spec.locate import SPEC_SUFFIXES
from grader.spec.parse import COURSE_FILE

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
    from grader.driver import Driver
    from grader.worker import prestart_zygote

    driver = Driver(settings, prestart_zygote())  # the catalogue, loaded once: items are views
    config.stash[DRIVER_KEY] = driver
    config.stash[SESSION_KEY] = driver.session()


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
    if (grading is None or file_path.suffix not in SPEC_SUFFIXES or file_path.name == COURSE_FILE
            or file_path.parent.resolve() != Path(grading.settings.exercises).resolve()):
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
    """The driver writes the results files and says the exit status, as for `vitgrade grade`."""
    grading = session.config.stash.get(SESSION_KEY, None)
    if grading is None:
        return
    outcome = session.config.stash[DRIVER_KEY].finish(grading)
    for note in outcome.notes:
        print(note, file=sys.stderr)
    if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        session.exitstatus = outcome.status  # else pytest's own: ^C, a usage or internal error


def pytest_unconfigure(config: pytest.Config) -> None:
    grading = config.stash.get(SESSION_KEY, None)
    if grading is not None:
        grading.close()
        config.stash[DRIVER_KEY].close()


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    """Exercises run, and report, in the catalogue's order (the specs' `order`, then id)."""
    grading = config.stash.get(SESSION_KEY, None)
    if grading is not None:
        rank = {exercise.id: n for n, exercise in enumerate(grading.catalogue)}
        items.sort(key=lambda item: (rank.get(getattr(item, "exercise_id", None), len(rank)),
                                     item.name))
