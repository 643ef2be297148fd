"""A hint placed in a student-API function whose step runs in a helper of the submission's own.

The error model places what it names in the function a check calls ("In `vit_forward`, the
model solution's `layer_norm(x, params['ln_g'], params['ln_b'])` comes after a pooling ..."),
but a student's function may hand that step to a helper of its own: blind round 70's b70_08
pools in its `classification_head`, b70_11 adds its bias in `applyKernel`, through the channel
loop of `applyKernel2Layers`, and both were told "In `vit_forward`" / "In `conv_patch_embed`",
where none of that code is. So, last of the report passes (spelled.finished), a sentence that
opens "In `f`, " (no place of its own yet) says the helper and its line, "In `f` (in your `h`,
which it calls: line 108, `x = layer_norm(x, g, b)`), ...", only where that line is known:

- the sentence's first clause quotes a call (the step) that no statement of `f` itself holds,
  and exactly one statement of the helpers `f` calls holds it once each helper's parameters are
  read as the arguments its caller passes (compared on tokens as quotes.py compares); a quoted
  pooling of rows (`x[1:].mean(axis=0)`, which a student spells `x[num_prefix_tokens:].mean(0)`
  or `np.mean(x, axis=0)`) is looked for as any reduction over the rows (axis 0 or -2): said
  where `f` itself reduces over rows nowhere and exactly one statement of its helpers does, of
  the quote's kind (blind round 75's b75_11 was sent to its LayerNorm's line, not its
  pooling's); or
- the sentence is about one of `f`'s parameters ("In `f`, `b` is added ..."), which `f` only
  passes on, whole, to helpers of its own (and they to theirs), and one helper alone does
  anything else with it: that helper is said, not a line ("which alone uses `b`"), as which of
  its lines holds the mistake is not known (a softmax helper may use `axis` for its max and
  forget it in its sum).

Otherwise the sentence is left as it is. Only the submission's own helpers (not the student
API's, which are checked on their own); nothing here runs student code.
"""
from __future__ import annotations

import ast
import copy
import re

from .parameters import parameters
from .quotes import Code, Source, cut

_OPENING = re.compile(r"In `(?P<function>[^\W\d]\w*)`, ")
_QUOTE = re.compile(r"`([^`\n]+)`")
DEEPEST = 4  # helpers followed at most, one calling the next
SHOWN = 70  # characters of the student's statement quoted at most
_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)


def helper_placed(hint: str | None, source: Source | None) -> str | None:
    """`hint` with each sentence placed in a student function whose step is known to run in a
    helper of the submission's own said with that helper and line (the module's docstring); as
    it is without a source."""
    if not hint or source is None or "In `" not in hint:
        return hint
    defined = {node.name: (chunk, node) for chunk, node in source.definitions()}
    out, at = [], 0
    for match in _OPENING.finditer(hint):
        function = match.group("function")
        if function not in defined:
            continue
        sentence = hint[match.end():]
        end = re.search(r"\.\s", _QUOTE.sub(lambda q: "x" * len(q.group()), sentence))
        sentence = sentence[:end.start() + 1] if end else sentence
        found = _step_place(function, sentence, defined, source) or _subject_place(
            function, sentence, defined, source)
        if found is None:
            continue
        out += [hint[at:match.end() - 2], _said(found, len(source.chunks) == 1), ", "]
        at = match.end()
    return "".join(out) + hint[at:] if out else hint


def _said(found: tuple, numbered: bool) -> str:
    """" (in your `h`, which it calls: line 12, `...`)" of a step, " (in your `h`, which it
    calls and which alone uses `b`)" of a parameter; either through other helpers."""
    chain, statement, text = found
    through = (" through your " + ", ".join(f"`{h}`" for h in chain[:-1])) if chain[:-1] else ""
    if statement is None:  # a parameter's: where its use is, not which line is wrong
        return f" (in your `{chain[-1]}`, which it calls{through} and which alone uses `{text}`)"
    line = f"line {statement.lineno}, " if numbered else ""
    return f" (in your `{chain[-1]}`, which it calls{through}: {line}`{text}`)"


# -- a quoted step -------------------------------------------------------------------------------


def _step_place(function: str, sentence: str, defined: dict, source: Source):
    """The one helper statement that makes the first clause's quoted call (`_makes`), where no
    statement of `function` itself makes it; else None."""
    clause = re.split(r"[:;]", re.sub(r"`[^`\n]*`", lambda m: "x" * len(m.group()), sentence))[0]
    for quote in _QUOTE.finditer(sentence[:len(clause)]):
        try:
            step = ast.parse(quote.group(1), mode="eval").body
        except SyntaxError:
            continue
        if not isinstance(step, ast.Call):
            continue
        chunk, node = defined[function]
        if (kind := row_reduction(step)) is not None:
            return _pooling_place(node, kind, defined, source)
        if any(Code(ast.unparse(s)).holds(quote.group(1)) or _makes(s, step, _locals(node))
               for s in value_statements(node)):
            return None  # the function's own code makes the step
        places = [(chain, s) for chain, s, bound in _helper_statements(node, defined, source)
                  if Code(ast.unparse(_bound(s, bound))).holds(quote.group(1))
                  or _makes(_bound(s, bound), step, _locals(defined[chain[-1]][1]))]
        return _one(places, defined)
    return None


REDUCTIONS = frozenset({"mean", "sum", "max", "min", "average", "nanmean", "median", "amax",
                        "amin", "nansum", "nanmax", "prod"})
ROW_AXES = (0, -2)  # of a (T, d) array of tokens: its rows
_MODULES = frozenset({"np", "numpy", "jnp", "torch"})


def row_reduction(call: ast.AST) -> str | None:
    """The name of the reduction `call` makes over the rows of an array (axis 0 or -2):
    `x.mean(axis=0)`, `x[1:].mean(0)`, `np.mean(x, axis=0)`, `x.max(-2)`; else None."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr in REDUCTIONS):
        return None
    module = isinstance(call.func.value, ast.Name) and call.func.value.id in _MODULES
    given = [k.value for k in call.keywords if k.arg in ("axis", "dim")]
    at = 1 if module else 0
    axis = given[0] if given else call.args[at] if len(call.args) > at else None
    try:
        value = ast.literal_eval(axis) if axis is not None else None
    except ValueError:
        return None
    return call.func.attr if type(value) is int and value in ROW_AXES else None


def _reductions(statement: ast.stmt) -> set[str]:
    return {kind for n in ast.walk(statement) if (kind := row_reduction(n)) is not None}


def _pooling_place(node: ast.FunctionDef, kind: str, defined: dict, source: Source):
    """The one helper statement that reduces over rows, where `node` itself does nowhere and
    no other statement of its helpers does, with any reduction (the pooling's line for sure),
    and that one makes a reduction of `kind`; else None."""
    if any(_reductions(s) for s in value_statements(node)):
        return None  # the function's own code pools
    places = [(chain, s) for chain, s, _ in _helper_statements(node, defined, source)
              if _reductions(s)]
    found = _one(places, defined)
    return found if found is not None and kind in _reductions(found[1]) else None


def _makes(statement: ast.stmt, step: ast.Call, local: set[str]) -> bool:
    """Whether `statement` (its helper's parameters read as its caller's arguments) calls what
    `step` calls with the same arguments, on tokens, but that an argument may be a local name
    of the helper (what the step's input became there: b70_08's `pooled`), at least one of them
    the same: the step, on what the helper computed."""
    wanted = _canonical(step.func)
    for call in ast.walk(statement.value):
        if not (isinstance(call, ast.Call) and _canonical(call.func) == wanted
                and len(call.args) == len(step.args)
                and sorted(map(_canonical, call.keywords)) == sorted(map(_canonical,
                                                                          step.keywords))):
            continue
        same = [_canonical(mine) == _canonical(theirs)
                for mine, theirs in zip(call.args, step.args, strict=True)]
        loose = [isinstance(mine, ast.Name) and mine.id in local for mine in call.args]
        if any(same) and all(a or b for a, b in zip(same, loose, strict=True)):
            return True
    return False


def _canonical(node: ast.AST) -> str:
    return Code(ast.unparse(node)).joined


def _locals(node: ast.FunctionDef) -> set[str]:
    """The names `node` binds itself (not its parameters)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)} - set(parameters(node))


# -- a parameter the sentence is about -----------------------------------------------------------


def _subject_place(function: str, sentence: str, defined: dict, source: Source):
    """(chain, None, the parameter) of the one helper that uses the parameter the sentence
    opens with, `f` and the helpers between only passing it on (the module's docstring)."""
    subject = re.match(r"`([^\W\d]\w*)` ", sentence)
    if subject is None:
        return None
    chunk, node = defined[function]
    if subject.group(1) not in parameters(node):
        return None
    places: list = []
    if not _follow(node, subject.group(1), [], defined, source, places, 0):
        return None
    chains = {(tuple(chain), name) for chain, name in places}  # which of its lines is wrong is
    if len(chains) != 1:  # not known: the helper alone is said (b70_11's bias is added in
        return None  # `applyKernel`, once per pass of `applyKernel2Layers`'s channel loop)
    (chain, name), = chains
    said = subject.group(1) + ("" if name == subject.group(1) else f"`, as `{name}")
    return [*chain], None, said


def _follow(node: ast.FunctionDef, name: str, chain: list[str], defined: dict, source: Source,
            places: list, depth: int) -> bool:
    """Add to `places` (chain, `name`) for each statement of `node` (reached through `chain`)
    that uses its parameter `name` otherwise than passing it whole to a helper of its own,
    following it into those; False when that cannot be told (it is rebound, a helper is too
    deep, or passed on at the function the sentence places: the step is its own)."""
    uses = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name]
    seen = {id(n) for s in value_statements(node) for n in ast.walk(s.value)}
    if (any(not isinstance(n.ctx, ast.Load) or id(n) not in seen for n in uses)
            or _nested(node)):  # rebound, read in a test or a loop's header, or a closure's
        return False
    for statement in value_statements(node):
        passed, other = [], False
        for use in (n for n in ast.walk(statement.value) if isinstance(n, ast.Name)
                    and n.id == name):
            target = _passed_to(statement, use, defined, source)
            if target is None:
                other = True
            else:
                passed.append(target)
        if other:
            if not chain:  # the sentence's function uses it itself
                return False
            places.append((chain, name))
        for helper, parameter in passed:
            if depth >= DEEPEST or not _follow(defined[helper][1], parameter, [*chain, helper],
                                               defined, source, places, depth + 1):
                return False
    return True


def _passed_to(statement: ast.stmt, use: ast.Name, defined: dict, source: Source):
    """(helper, its parameter) when `use` is an argument, whole, of a call of a helper of the
    submission's own (not the student API's) in `statement`; else None."""
    for call in ast.walk(statement):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id in defined and call.func.id not in source.api):
            continue
        names = parameters(defined[call.func.id][1])
        for at, argument in enumerate(call.args):
            if argument is use and at < len(names):
                return call.func.id, names[at]
        for keyword in call.keywords:
            if keyword.value is use and keyword.arg in names:
                return call.func.id, keyword.arg
    return None


# -- shared --------------------------------------------------------------------------------------


def _helper_statements(node: ast.FunctionDef, defined: dict, source: Source, chain=(),
                       bound=None, depth: int = 0):
    """(chain, statement, {parameter: the caller's argument}) of each statement of each helper
    of the submission's own `node` calls, transitively (DEEPEST at most), each helper's
    parameters bound to its caller's arguments, themselves read in the caller's terms."""
    if depth >= DEEPEST:
        return
    for call in (n for s in value_statements(node) for n in ast.walk(s.value)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in defined and n.func.id not in source.api
                 and n.func.id != node.name and n.func.id not in chain):
        helper = defined[call.func.id][1]
        names = parameters(helper)
        given = {p: _bound(a, bound or {}) for p, a in zip(names, call.args, strict=False)}
        given.update({k.arg: _bound(k.value, bound or {}) for k in call.keywords
                      if k.arg in names})
        now = [*chain, helper.name]
        for statement in value_statements(helper):
            yield now, statement, given
        yield from _helper_statements(helper, defined, source, now, given, depth + 1)


def _bound(node: ast.AST, bound: dict) -> ast.AST:
    """`node` (a copy) with each name of `bound` read as what it is bound to."""
    class Bind(ast.NodeTransformer):
        def visit_Name(self, name):
            return copy.deepcopy(bound[name.id]) if name.id in bound else name

    return Bind().visit(copy.deepcopy(node)) if bound else node


def _one(places: list, defined: dict):
    """(chain, statement, its text) of the one place found, else None."""
    unique = {id(s): (chain, s) for chain, s in places}
    if len(unique) != 1:
        return None
    chain, statement = next(iter(unique.values()))
    chunk = defined[chain[-1]][0]
    text = " ".join((ast.get_source_segment(chunk, statement) or ast.unparse(statement)).split())
    return chain, statement, text if len(text) <= SHOWN else cut(text, SHOWN - 3) + "..."


def value_statements(node: ast.FunctionDef):
    """The function's simple statements with a value, nested in its blocks, not in a function
    it defines, in order."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(child, _SIMPLE) and child.value is not None:
            yield child
        elif isinstance(child, ast.stmt):
            yield from value_statements(child)


def _nested(node: ast.FunctionDef) -> bool:
    """Whether `node` defines a function or class of its own (a closure may read a name)."""
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda)
               for n in ast.walk(node) if n is not node)
