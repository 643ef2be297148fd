"""JUnit XML (`vitgrade grade --junitxml OUT`), as pytest's junitxml writes it for `pytest
--student`: one <testcase> per exercise with its points (the maximum) and score as properties,
and a <failure> holding its feedback when it lost points. Student text goes in with its control
characters shown (escape.py): XML 1.0 cannot hold them.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from grader.checks.results import PASSED, GradeReport

from .escape import terminal_text
from .terminal import exercise_feedback, points


def junit_xml(report: GradeReport) -> str:
    failed = [e for e in report.exercises if e.status != PASSED]
    suite = ET.Element("testsuite", name="vit-grader", tests=str(len(report.exercises)),
                       failures=str(len(failed)), errors=str(len(report.spec_errors)),
                       skipped="0", time=f"{report.seconds:.3f}")
    for exercise in report.exercises:
        case = ET.SubElement(suite, "testcase", classname="exercises", name=exercise.id,
                             time=f"{exercise.seconds:.3f}")
        properties = ET.SubElement(case, "properties")
        for name, value in (("points", exercise.max_score), ("score", exercise.score)):
            ET.SubElement(properties, "property", name=name, value=points(value))
        if exercise.status != PASSED:
            why = report.fatal or f"{points(exercise.score)} / {points(exercise.max_score)}"
            failure = ET.SubElement(case, "failure", message=terminal_text(why))
            failure.text = terminal_text(exercise_feedback(exercise))
    for error in report.spec_errors:  # an exercise that could not be loaded, as pytest shows it
        case = ET.SubElement(suite, "testcase", classname="exercises", name="spec error")
        ET.SubElement(case, "error", message=terminal_text(error))
    suites = ET.Element("testsuites")
    suites.append(suite)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
