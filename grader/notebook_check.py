"""`check()`: grade what a notebook (or a Python session) has defined, on the visible cases only.

    from grader import check
    check("patchify")   # one exercise: its id, or a function it grades
    check()             # every exercise

Not a shortcut beside `vitgrade grade`: the functions live only in the kernel, so `check()`
writes what the graded names need into a temporary module (each function's and class's own
source, imports, literals, numpy arrays through an `.npz` read without pickle) and grades it with
vitgrade grade's driver, in the ordinary worker, at its limits (check()'s keywords as its flags).
So a loop times out instead of freezing the kernel, a crash kills a worker and not the notebook,
and the graded calls cannot change the kernel's variables. Hidden checks are skipped. Tracebacks
point back to the student's cells: `File "In[7]", line 3` (IPython's own label). What cannot be
written as source (another type, a nested function, one typed at the `>>>` prompt) is named in
the report; only names the graded functions use are carried. The cells a notebook marks to grade
(worker/cell_tags.py) do not apply: the live names are graded, whichever cells defined them.

Inside the grader's worker (a graded notebook that calls it), `check()` does nothing: the grade
that counts is the autograder's, and the worker must not load the specs or the reference.
"""
from __future__ import annotations

import ast
import difflib
import os
import re
import sys
import types
from contextlib import suppress
from pathlib import Path

MODULE_FILE = "your_code.py"
VISIBLE_ONLY_NOTE = "visible cases only: the autograder also runs hidden cases"
# Names IPython keeps in the namespace for itself: never carried, never reported.
_SHELL_NAMES = r"^(?:_+|_\d+|_i+\d*|_[iod]h|In|Out|exit|quit|get_ipython|display)$"
_LITERAL_TYPES = (bool, int, float, complex, str, bytes, type(None))


class UnknownExercise(ValueError):
    """`check(name)` with a name that is no exercise id and no graded function."""


def check(exercise: str | None = None, *, exercises: str | os.PathLike | None = None,
          student_id: str | None = None, **limits) -> None:
    """Grade the caller's namespace on the visible cases of `exercise` (default: all) and show it.

    `exercises` is a folder of specs (default: the one `vitgrade grade` would use); `student_id`
    picks the student's own variants (default: VITGRADE_STUDENT_ID); `limits` are vitgrade
    grade's, by name (`call_timeout=2`, `memory_mb=...`, `feedback="hint"`), and apply as its
    flags do.
    """
    if _in_worker():
        return
    from grader.settings import SettingsError

    namespace = sys._getframe(1).f_globals
    try:
        report = grade_namespace(namespace, exercise, exercises=exercises,
                                 student_id=student_id, **limits)
    except (UnknownExercise, SettingsError) as unknown:
        print(unknown)
        return
    show(report)


def grade_namespace(namespace: dict, exercise: str | None = None, *, exercises=None,
                    student_id: str | None = None, **limits):
    """The GradeReport of `namespace` on the visible cases (see the module's docstring), graded
    by vitgrade grade's driver (grader/session.py) under the same settings and limits."""
    import tempfile
    from dataclasses import replace

    from grader.driver import Driver
    from grader.settings import LIMIT_OPTIONS, SettingsError, resolve_settings

    names = [option.name for option in LIMIT_OPTIONS]
    for name in limits.keys() - {*names, "feedback", "attempt"}:
        raise SettingsError(f"check() takes exercises=, feedback=, attempt= and the limits "
                            f"{', '.join(names)}; not {name}=")
    with tempfile.TemporaryDirectory(prefix="vitgrade-check-") as folder:
        os.chmod(folder, 0o755)  # as root, the worker is a user of its own: it reads arrays.npz
        script = namespace.get("__file__")
        given = {**limits, "student": str(Path(folder, MODULE_FILE)), "exercises": exercises,
                 "visible_only": True, "student_id": student_id,
                 # a local count of attempts per notebook or script
                 "attempt_key": f"check() in {script if isinstance(script, str) else Path.cwd()}"}
        # the environment's limits apply; not its results files: the kernel writes none
        settings = replace(resolve_settings(given.get, Path.cwd()), json_out=None,
                           prairielearn_out=None, classroom=False)
        driver = Driver(settings)
        catalogue = driver.catalogue
        own, _ = driver.variants(driver.settings.student_id)  # the student's own variants
        chosen, spec_errors = _choose(own, list(catalogue.errors), exercise)
        module = carry(namespace, _roots(chosen), Path(folder))
        session = driver.session()
        session.spec_errors = [str(e) for e in spec_errors]
        try:
            session.run(chosen)
            report = driver.finish(session).report
        finally:
            driver.close()  # the reference's processes, if a stand-in call started one
    script = namespace.get("__file__")
    name = ("this notebook" if _kernel() is not None
            else Path(script).name if isinstance(script, str) else "this session")
    return replace(
        report, submission=name,
        exercises=tuple(replace(r, checks=tuple(replace(c, message=module.remap(c.message),
                                                        printed=module.remap(c.printed))
                                                for c in r.checks)) for r in report.exercises),
        printed=module.remap(report.printed),
        load_problems=tuple(module.notes + [module.remap(p) for p in report.load_problems]),
        fatal=module.remap(report.fatal) if report.fatal else None)


def _choose(exercises: list, errors: list, wanted: str | None):
    """The exercises to grade and the spec errors to show: `wanted`'s exercise, else those with
    a check of the function `wanted` (not those that only build on it), else those using it."""
    if wanted is None:
        return exercises, errors
    chosen = ([e for e in exercises if e.id == wanted]
              or [e for e in exercises if wanted in (c.subject for c in e.checks)]
              or [e for e in exercises if wanted in _roots([e])])
    if not chosen:
        near = difflib.get_close_matches(wanted, [e.id for e in exercises] + _roots(exercises),
                                         n=1)
        if near:
            raise UnknownExercise(f"check({wanted!r}): no exercise or function {wanted!r}; "
                                  f"did you mean {near[0]!r}?")
        known = ", ".join(e.id for e in exercises)
        raise UnknownExercise(f"check({wanted!r}): no exercise has that id or grades that "
                              f"function; the exercises are: {known}")
    return chosen, [e for e in errors if wanted in str(e)]


def _roots(exercises) -> list[str]:
    """The names grading will ask the worker for."""
    names = []
    for exercise in exercises:
        names += list(exercise.uses) + [n for c in exercise.checks for n in c.names_read()]
    return list(dict.fromkeys(names))


# -- writing the namespace as a module ----------------------------------------------------------


class CarriedModule:
    """The module written for the worker, and how to read its line numbers as the student's.

    (Plain classes here, not dataclasses: this module is imported by every graded notebook
    that calls check(), and building a dataclass costs a millisecond or two.)
    """

    def __init__(self, path: Path):
        self.path = path
        # (first line, count, origin, its first line)
        self.blocks: list[tuple[int, int, str, int]] = []
        self.notes: list[str] = []

    def remap(self, text: str) -> str:
        """`File "your_code.py", line 57` -> `File "In[7]", line 3`; `your_code.py:57` likewise."""
        def students(match: re.Match) -> str:
            line = int(match["line"])
            for first, count, origin, origin_line in self.blocks:
                if first <= line < first + count:
                    where = match["before"].replace(MODULE_FILE, origin)
                    return f"{where}{origin_line + line - first}"
            return match[0]

        name = re.escape(MODULE_FILE)
        text = text.replace(f"{self.path.parent}{os.sep}", "")  # a warning names the whole path
        return re.sub(rf'(?P<before>File "{name}", line |{name}:)(?P<line>\d+)', students, text)


class _Item:
    """One name of the carried module: its kind ("import", "data", "definition") and its lines."""

    def __init__(self, name: str, kind: str, lines: list[str], refs: set[str] = frozenset(),
                 origin: tuple[str, int] | None = None, order: tuple = ()):
        self.name, self.kind, self.lines, self.refs = name, kind, lines, set(refs)
        self.origin = origin  # (label, first line) of a definition's source
        self.order = order


def carry(namespace: dict, roots: list[str], folder: Path) -> CarriedModule:
    """Write `folder/your_code.py` defining `roots` and what they use, as far as it can be."""
    module = CarriedModule(folder / MODULE_FILE)
    items, arrays, seen, todo = [], {}, set(), list(roots)
    while todo:
        name = todo.pop(0)
        if name in seen or name not in namespace or re.match(_SHELL_NAMES, name):
            continue
        seen.add(name)
        try:
            item = _item(name, namespace[name], namespace, arrays)
        except Exception as exc:  # noqa: BLE001 - a student's object that misbehaves when looked at
            item = f"looking at it raised {type(exc).__name__}"
        if isinstance(item, str):
            module.notes.append(f"`{name}` was not carried into the check: {item}")
            continue
        items.append(item)
        todo += sorted(item.refs)
    lines = [f"# What check() carried from your namespace into a fresh process ({__name__}).\n",
             "import sys as _vitgrade_sys\n",
             f"_vitgrade_sys.path.insert(1, {os.getcwd()!r})"
             "  # your folder: your own modules import\n"]
    if arrays:
        import numpy as np

        np.savez(folder / "arrays.npz", **arrays)
        lines += ["import numpy as _vitgrade_np\n",
                  f"_vitgrade_arrays = _vitgrade_np.load({str(folder / 'arrays.npz')!r}, "
                  "allow_pickle=False)\n"]
    rank = {"import": 0, "data": 1, "definition": 2}
    for item in sorted(items, key=lambda i: (rank[i.kind], i.order, i.name)):
        if item.origin is not None:
            module.blocks.append((len(lines) + 1, len(item.lines), item.origin[0], item.origin[1]))
        lines += item.lines
        if item.kind == "definition":
            lines.append("\n")
    module.path.write_text("".join(lines), encoding="utf-8")
    return module


def _item(name: str, value, namespace: dict, arrays: dict) -> _Item | str:
    """How to write `name = value` as source, or why it cannot be."""
    if isinstance(value, types.ModuleType):
        real = value.__name__
        if real == "__main__" or getattr(value, "__spec__", None) is None:
            return f"the module {real} cannot be imported in another process"
        as_name = "" if name == real and "." not in real else f" as {name}"
        return _Item(name, "import", [f"import {real}{as_name}\n"])
    # decorated: the function's source has the decorator too
    wrapped = getattr(value, "__wrapped__", None)
    main = namespace.get("__name__")
    if isinstance(wrapped, types.FunctionType) and wrapped.__module__ == main:
        return _definition(name, wrapped)
    if isinstance(value, (types.FunctionType, type)) and value.__module__ == main:
        return _definition(name, value)
    imported = _import_name(name, value)
    if imported is not None:
        return imported
    if _is_literal(value):
        text = repr(value)
        with suppress(ValueError, SyntaxError, MemoryError, RecursionError):
            if ast.literal_eval(text) == value:
                return _Item(name, "data", [f"{name} = {text}\n"])
    numpy = sys.modules.get("numpy")
    # objects need pickle; structured records stay out too
    if (numpy is not None and isinstance(value, (numpy.ndarray, numpy.generic))
            and value.dtype.kind not in "OV"):
        arrays[name] = value
        scalar = "[()]" if isinstance(value, numpy.generic) else ""
        return _Item(name, "data", [f"{name} = _vitgrade_arrays[{name!r}]{scalar}\n"])
    kind = type(value).__name__
    return (f"it is a {kind}; check() carries functions, classes, imports, numbers, strings, "
            f"lists, tuples and dicts of those, and numpy arrays")


def _import_name(name: str, value) -> _Item | None:
    """`from numpy import exp as e` for a value a module exports under its qualified name."""
    module_name, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if (not isinstance(module_name, str) or not isinstance(qualname, str)
            or "." in qualname or "<" in qualname):
        return None
    module = sys.modules.get(module_name)
    if module is None or module_name == "__main__" or getattr(module, qualname, None) is not value:
        return None
    alias = f" as {name}" if name != qualname else ""
    return _Item(name, "import", [f"from {module_name} import {qualname}{alias}\n"])


def _definition(name: str, value) -> _Item | str:
    """A function or class defined in the notebook, by its own source."""
    closure = getattr(getattr(value, "__code__", None), "co_freevars", ())
    if "<locals>" in value.__qualname__ or closure:
        return "it is defined inside another function; define it at the top level of a cell"
    found = _source(value)
    if found is None:
        return ("its source is not available (a function typed at the >>> prompt has none): "
                "define it in a file or a notebook cell")
    import textwrap

    lines, filename, first = found
    text = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return "its source could not be read back"
    defined = value.__name__
    if defined == "<lambda>":
        one_assignment = len(tree.body) == 1 and isinstance(tree.body[0], ast.Assign)
        target = tree.body[0].targets[0] if one_assignment else None
        if not isinstance(target, ast.Name):
            return "it is a lambda that is not alone on its line (`name = lambda ...`): use def"
        defined = target.id
    out = text.splitlines(True)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    if defined != name:
        out.append(f"{name} = {defined}\n")
    refs = _global_names(value) | _definition_names(tree)
    label, order = _origin(filename)
    return _Item(name, "definition", out, refs - {name, defined}, (label, first),
                 (order, filename, first))


def _source(value) -> tuple[list[str], str, int] | None:
    """(source lines, file name, first line) of a function or class, or None."""
    import inspect

    with suppress(OSError, TypeError):
        lines, first = inspect.getsourcelines(value)
        return lines, inspect.getsourcefile(value) or inspect.getfile(value), max(first, 1)
    if isinstance(value, type):  # a class of __main__ in a kernel: found through one of its methods
        for member in vars(value).values():
            code = getattr(getattr(member, "__func__", member), "__code__", None)
            found = code and _class_in_file(value.__name__, code.co_filename, code.co_firstlineno)
            if found:
                return found
    return None


def _class_in_file(name: str, filename: str, line: int) -> tuple[list[str], str, int] | None:
    import linecache

    lines = linecache.getlines(filename)
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.ClassDef) and node.name == name
                and node.lineno <= line <= node.end_lineno):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            return lines[first - 1 : node.end_lineno], filename, first
    return None


def _global_names(value) -> set[str]:
    """Global names the function's (or the class's methods') code reads, nested code included."""
    import dis

    codes = [value.__code__] if isinstance(value, types.FunctionType) else [
        getattr(getattr(m, "__func__", m), "__code__", None) for m in vars(value).values()]
    names, todo = set(), [c for c in codes if c is not None]
    while todo:
        code = todo.pop()
        for instruction in dis.get_instructions(code):
            if (instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME")
                    and isinstance(instruction.argval, str)):
                names.add(instruction.argval)
        todo += [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return names


def _definition_names(tree: ast.Module) -> set[str]:
    """Names the `def`/`class` statement itself evaluates: decorators, defaults, bases, bodies."""
    names = set()
    for node in tree.body:
        parts = list(getattr(node, "decorator_list", []))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parts += node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
        elif isinstance(node, ast.ClassDef):
            parts += node.bases + [k.value for k in node.keywords]
            methods = (ast.FunctionDef, ast.AsyncFunctionDef)
            parts += [s for s in node.body if not isinstance(s, methods)]
        else:
            parts.append(node)
        names |= {n.id for part in parts for n in ast.walk(part) if isinstance(n, ast.Name)}
    return names


def _origin(filename: str) -> tuple[str, int]:
    """How the student knows where a definition came from: 'In[7]' in IPython, else the file."""
    shell = _ipython_shell()
    numbers = getattr(getattr(shell, "compile", None), "_filename_map", {}) if shell else {}
    number = numbers.get(filename)
    if number is not None:
        return f"In[{number}]", number
    return (filename if filename.startswith("<") else Path(filename).name), 0


def _is_literal(value, depth: int = 0) -> bool:
    if depth > 20:
        return False
    if type(value) in _LITERAL_TYPES:
        return True
    if type(value) in (list, tuple, set):
        return all(_is_literal(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(_is_literal(k, depth + 1) and _is_literal(v, depth + 1)
                   for k, v in value.items())
    return False


# -- where check() runs ---------------------------------------------------------------------------


def _in_worker() -> bool:
    """True in the grader's worker: a graded notebook or module that calls check() gets nothing."""
    serve = sys.modules.get("grader.worker.serve")  # the zygote preloads it; a process that
    if serve is not None and serve.SERVING:  # imported it (a test's) is no worker for that
        return True
    notebook = sys.modules.get("grader.worker.notebook")
    if notebook is not None and notebook.RUNNING:
        return True
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return getattr(spec, "name", None) == "grader.worker.serve"  # spawned where fork is missing


def _ipython_shell():
    ipython = sys.modules.get("IPython")  # never imported here: only looked for
    return ipython.get_ipython() if ipython is not None else None


def _kernel():
    """The Jupyter kernel's shell when check() runs in one, else None."""
    shell = _ipython_shell()
    return shell if shell is not None and getattr(shell, "kernel", None) is not None else None


# -- showing the result ---------------------------------------------------------------------------


def show(report) -> None:
    """A small HTML table in Jupyter (with the text for other front ends); text in a terminal."""
    text = render_text(report)
    if _kernel() is not None:
        from IPython.display import display

        display({"text/plain": text, "text/html": render_html(report)}, raw=True)
    else:
        print(text)


def render_text(report) -> str:
    """What `vitgrade grade` prints (problems, the feedback of each exercise that lost points,
    the scores), then that hidden cases were not run."""
    from grader.report.terminal import report_lines

    return "\n".join(report_lines(report) + [VISIBLE_ONLY_NOTE])


def render_html(report) -> str:
    """The same text, its score table (report_lines' last part) as an HTML table."""
    import html

    from grader.checks.results import PASSED
    from grader.report.terminal import report_lines, score_rows, stand_in_footnote

    def row(cells, colour="inherit", mark=""):
        ident, lecture, score, status = map(html.escape, cells)
        return (f'<tr><td style="text-align:left">{ident}</td><td style="text-align:left">'
                f'{lecture}</td><td>{score}</td><td style="text-align:left;color:{colour}">'
                f"{mark}{status}</td></tr>")

    *rows, total = score_rows(report)
    passed = [e.status == PASSED and not report.fatal for e in report.exercises]
    body = [row(r, *(("#1a7f37", "&#10003; ") if ok else ("#cf222e", "&#10007; ")))
            for r, ok in zip(rows, passed, strict=True)] + [row(total)]
    text = "\n".join(report_lines(report)[:-1])
    notes = "".join(f"<p>{html.escape(n)}</p>" for n in (stand_in_footnote(report),
                                                         VISIBLE_ONLY_NOTE) if n)
    return (f'<div class="vitgrade-check"><pre>{html.escape(text)}</pre><table><thead><tr>'
            '<th style="text-align:left">exercise</th>'
            '<th style="text-align:left">lecture</th><th>score</th><th></th></tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>{notes}</div>')
