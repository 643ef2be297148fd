"""docs/student-api.md is the project's own contract: it documents exactly what the solution
defines (every public function with its signature, every ANSWERS key), and nothing in the
project or the student bundle points anywhere else for it."""
from __future__ import annotations

import importlib.util
import inspect
import re

from conftest import ROOT, SOLUTION

API_DOC = ROOT / "docs" / "student-api.md"
DOCUMENTED_CALL = re.compile(r"^\| `([A-Za-z_]\w*)\(([^)]*)\)` \|", re.MULTILINE)
DOCUMENTED_KEY = re.compile(r'^\| `"(\w+)"` \|', re.MULTILINE)
ELSEWHERE = "shared/" + "curriculum"  # split, so this file does not mention it either


def solution_module():
    spec = importlib.util.spec_from_file_location("vit_exercises_solution", SOLUTION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def signature_of(parameters: str) -> inspect.Signature:
    """The signature of a documented call's parameter list, `x, eps=1e-6`."""
    return inspect.signature(eval(f"lambda {parameters}: None"))  # the project's own doc


def solution_functions() -> dict[str, inspect.Signature]:
    """name -> signature of each public function the solution defines."""
    module = solution_module()
    return {name: inspect.signature(f) for name, f in vars(module).items()
            if inspect.isfunction(f) and f.__module__ == module.__name__
            and not name.startswith("_")}


def test_every_function_of_the_solution_is_documented_with_its_signature():
    calls = DOCUMENTED_CALL.findall(API_DOC.read_text())
    documented = {name: signature_of(parameters) for name, parameters in calls}
    assert len(documented) == len(calls)
    assert documented == solution_functions()


def test_every_answers_key_of_the_solution_is_documented_and_no_other():
    documented = DOCUMENTED_KEY.findall(API_DOC.read_text())
    assert len(documented) == len(set(documented))
    assert set(documented) == set(solution_module().ANSWERS)


def test_no_project_file_points_to_the_shared_curriculum():
    tracked = [p for p in ROOT.rglob("*") if p.is_file()
               and not {".git", ".venv", "__pycache__"} & set(p.relative_to(ROOT).parts)
               and ".egg-info" not in str(p.relative_to(ROOT))]
    assert tracked
    mentions = [str(p.relative_to(ROOT)) for p in tracked
                if ELSEWHERE in p.read_bytes().decode("utf-8", "replace")]
    assert mentions == []


def test_the_apis_optional_parameters_are_the_references_defaults():
    """checks/api.py copies them (the student bundle has no reference to read them from); a
    stand-in passes on what a call sets them to, and drops what equals these."""
    from grader.checks.api import OPTIONS, SIGNATURES
    from grader.reference import REFERENCE

    for name, options in OPTIONS.items():
        needed = SIGNATURES[name]
        parameters = list(inspect.signature(REFERENCE[name]).parameters.values())
        assert tuple(p.name for p in parameters[:len(needed)]) == needed
        assert tuple(p.default for p in parameters[len(needed):][:len(options)]) == options, name
