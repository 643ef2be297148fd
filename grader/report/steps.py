"""A hint's place in the student's terms: "(at your line `...`)", not the model solution's step.

The error model places an edit made in a helper's call of the reference ("In `linear_patch_embed`
(at the model solution's step `linear(patchify(image, P), W_e, b_e)`), ...": change.where). That
step is the grader's internal reference's: students never see it, and their code may hold no
such call (`x = patchify(image, P)`, then `return x @ W_e.T + b_e`) nor such a helper (blind
round 56's b56_08, b56_11). So, last of the report passes (spelled.finished), each such step is
said as the statement of the student's function that computes it, when exactly one holds every
argument of the step's call, compared on tokens as quotes.py compares (directly or through a
name an earlier statement bound from it: `x = patchify(image, P)` holds `patchify(image, P)`
for `x @ W_e.T`); else in words (STEPS: "where `W_e` multiplies its input and `b_e` is added"),
or as a call of the student's own function of that name, or not at all. Never a call of a helper
the student does not define. Nothing here runs student code.
"""
from __future__ import annotations

import ast
import re
import textwrap

from .masked_line import HIDE_LINE
from .masked_line import PATTERNS as HIDING
from .quotes import CAST, LINES_AT_MOST, OWN_LINES, PLACED, Code, Source, cut

try:  # the error model's words; the student bundle has none, nor any hint that places a step
    from grader.reference.error_model.change import STEP
except ImportError:
    STEP = None

SAID = re.compile(rf"In `(?P<function>[^\W\d]\w*)` \({STEP} `(?P<step>[^`]+)`\)")
SHOWN = 70  # characters of the student's statement quoted at most
# the reference's helpers a step calls -> the step in words, from its arguments' code
STEPS = {
    "linear": lambda a: (f"where `{a[1]}` multiplies its input and `{a[2]}` is added"
                         if len(a) == 3 else "where its input is multiplied by the weights"),
    "attention": lambda a: "where each head's attention weights are computed and applied to "
                           "its values",
    "split_heads": lambda a: "where the columns are split into heads",
    "merge_heads": lambda a: "where the heads are merged back into columns",
    "causal_mask": lambda a: "where the causal mask is built",
    "mlp": lambda a: "in the MLP step",
    "as_hwc": lambda a: "where a 2-D image is given its channel axis",
}

# each mark said as the student's line, else dropped (quotes.ROOT_LINE: their one statement
# that takes a square root in any spelling, root_line.takes_root)
MARKS = {**OWN_LINES, HIDE_LINE: HIDING}


def placed(hint: str | None, source: Source | None) -> str | None:
    """`hint` with each model solution's step said in the student's terms (the module's
    docstring), and each cast (quotes.CAST) as the student's line that makes it; as it is
    without a source."""
    if not hint or source is None:
        return hint
    hint = CASTS.sub(lambda m: _cast(hint, m, source), hint) if CAST in hint else hint
    for said, patterns in MARKS.items():
        while said in hint:
            at = hint.index(said)
            hint = (hint[:at] + _line(hint[:at], patterns, source, LINES_AT_MOST.get(said, 1))
                    + hint[at + len(said):])
    if STEP is None or STEP not in hint:
        return hint
    return SAID.sub(lambda m: _said(m.group("function"), m.group("step"), source,
                                    _sentence(hint, m.end())), hint)


def _sentence(hint: str, at: int) -> str:
    """The rest of the sentence that a place ending at `at` opens: up to the next "In `"."""
    end = hint.find("In `", at)
    return hint[at:] if end < 0 else hint[at:end]


CASTS = re.compile(re.escape(CAST) + r"`(?P<cast>[^`\n]+)`")


def _cast(hint: str, match: re.Match, source: Source) -> str:
    """"the cast at your line `qkv = x.astype(np.float16) @ w + b`" where exactly one statement
    of the function the sentence places holds the cast, as the student wrote it (blind round
    60's b60_06); else the cast as the sentence quotes it."""
    line = _own_line(hint[:match.start()], (match.group("cast"),), source)
    return match.group() if line is None else f"{CAST}at your line `{line}`"


def _line(before: str, patterns: tuple[str, ...], source: Source, most: int = 1) -> str:
    """" (at your line `h = w = int((H * W // (p * p)) ** 0.5)`)" where exactly one statement of
    the function the sentence places holds one of the patterns, as the student wrote it (blind
    round 62's b62_11), or " (at your lines `...` and `...`)" where up to `most` do (one per
    side: b64_12); else nothing."""
    lines = _own_lines(before, patterns, source, most)
    if not lines:
        return ""
    quoted = " and ".join(f"`{line}`" for line in lines)
    return f" (at your line{'s' if len(lines) > 1 else ''} {quoted})"


def _own_line(before: str, patterns: tuple[str, ...], source: Source) -> str | None:
    """The one statement of the function the sentence places (its last "In `f`" in `before`)
    that holds one of `patterns`, tried in order, as the student wrote it; else None."""
    lines = _own_lines(before, patterns, source, 1)
    return lines[0] if lines else None


def _own_lines(before: str, patterns: tuple[str, ...], source: Source, most: int) -> list[str]:
    """The statements (one to `most`) of the function the sentence places that hold the first
    of `patterns` some do, as the student wrote them; else none."""
    function = PLACED.findall(before)
    text = source.function_text(function[-1]) if function else None
    for pattern in patterns if text else ():
        lines = statements(text, [pattern])
        if 1 <= len(lines) <= most:
            return lines
    return []


def _said(function: str, step: str, source: Source, sentence: str = "") -> str:
    """The step's place in `function` in the student's terms (the module's docstring); no line
    where the rest of its `sentence` quotes that line (a mark's: `out = attend(q, k, v,
    np.sqrt(d))`)."""
    try:
        call = ast.parse(step, mode="eval").body
    except SyntaxError:  # a step cut short ("..."): no call to compare
        call = None
    if not isinstance(call, ast.Call):
        return f"In `{function}`"
    callee = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(
        call.func, "id", "")
    arguments = [ast.unparse(a) for a in (*call.args, *(k.value for k in call.keywords))]
    line = statement(source.function_text(function), arguments) if arguments else None
    if line is not None:
        return (f"In `{function}`" if f"at your line `{line}`" in sentence
                else f"In `{function}` (at your line `{line}`)")
    if callee and source.function_text(callee) is not None and calls(
            source.function_text(function), callee):
        return f"In `{function}` (in its call of your `{callee}`)"
    if callee in STEPS:
        return f"In `{function}` ({STEPS[callee](arguments)})"
    return f"In `{function}`"


def calls(text: str | None, callee: str) -> bool:
    """Whether the function `text` calls `callee` by name itself (blind round 66's b66_03: an
    attention whose softmax is a loop of its own was told "in its call of your `softmax`")."""
    try:
        tree = ast.parse(textwrap.dedent(text or ""))
    except Exception:  # noqa: BLE001 - hostile text: SyntaxError, ValueError, RecursionError
        return False
    return any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == callee
               for n in ast.walk(tree))


def statement(text: str | None, arguments: list[str]) -> str | None:
    """The one simple statement of the function `text` that holds each of `arguments`, itself
    or through a name an earlier statement bound to it alone (`x = patchify(image, P)`), quoted
    and cut to SHOWN characters; None when none does (the step spread over several), or several."""
    found = statements(text, arguments)
    return found[0] if len(found) == 1 else None


def statements(text: str | None, arguments: list[str]) -> list[str]:
    """Every simple statement of the function `text` that holds each of `arguments` (as
    `statement` reads them; an argument that is a test of the statement's code's tree, where
    that test holds), quoted and cut to SHOWN characters, in order."""
    text = textwrap.dedent(text or "")
    try:
        tree = ast.parse(text)
    except Exception:  # noqa: BLE001 - hostile text: SyntaxError, ValueError, RecursionError
        return []
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return []
    simple = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)
    bound: dict[str, int] = {}  # a name -> the argument bound to it, as it is (an alias)
    found = []
    for node in own_statements(tree.body[0]):
        if not isinstance(node, simple) or node.value is None:
            continue
        code = Code(ast.unparse(node.value))
        names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        held = {i for i, a in enumerate(arguments)
                if (a(node.value) if callable(a) else code.holds(a))}
        held |= {bound[name] for name in names if name in bound}
        if len(held) == len(arguments):
            found.append(node)
        alias = [i for i, a in enumerate(arguments)
                 if not callable(a) and Code(a).joined == code.joined]
        for target in node.targets if isinstance(node, ast.Assign) else ():
            if isinstance(target, ast.Name):
                bound.pop(target.id, None)
                bound.update({target.id: alias[0]} if alias else {})
    return [shown(text, node) for node in found]


def shown(text: str, node: ast.stmt) -> str:
    """The statement `node` of `text` as written, on one line, cut to SHOWN characters."""
    said = " ".join((ast.get_source_segment(text, node) or ast.unparse(node)).split())
    return said if len(said) <= SHOWN else cut(said, SHOWN - 3) + "..."


def own_statements(function: ast.AST):
    """The function's statements in the order they run (not those of a function it defines)."""
    for node in ast.iter_child_nodes(function):
        if isinstance(node, ast.stmt) and not isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node
            yield from own_statements(node)
