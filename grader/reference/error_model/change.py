"""What an operator yields and the words it is told in: `Context` (the checked function and the
instance where a node is), `Change` (one edit and its sentence), and the small helpers every
operator module shares to quote the reference's code and to edit a call.
"""
from __future__ import annotations

import ast
import copy
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from grader.report.quotes import CAST, EFFECT, cut  # noqa: F401 - the sentences' words for quotes

from .tree import PREFIX, SKIPPED, Instance, own_function


@dataclass(frozen=True)
class Context:
    root: str                   # the checked function: "encoder_block"
    instance: Instance          # where the node is
    function: Callable | None = None  # the checked function (its signature's shapes)


@dataclass(frozen=True)
class Change:
    detail: str                 # short, stable: "sum.axis=0"
    sentence: str
    replace: Callable[[ast.AST], ast.AST]
    names: tuple = ()           # (name, value) pairs the new code needs
    holds: Callable | None = None  # (rewritten function, calls, same) -> whether its sentence
    # is true of calls it reproduces: a default's "a call that names it is right" (choices.py)
    shared: str | None = None   # the sentence when made at each call of its helper at once
    # (`everywhere`), where `sentence` names what this one call passes (weights.py)
    rounding: bool = False      # its values are a narrower float's, defined only up to that
    # float's rounding: it reproduces a call when it explains the student's departure from the
    # reference (trial.explained), not within the check's tolerance (dtypes.steps_in)


SHOWN = 70  # characters of code quoted in a sentence


def code(node: ast.AST) -> str:
    """The node's source as the reference writes it (helper instances under their own name)."""
    text = re.sub(rf"{PREFIX}([A-Za-z_]*[A-Za-z])(?:_\d+)?", r"\1", ast.unparse(node))
    return text if len(text) <= SHOWN else cut(text, SHOWN - 3) + "..."


def whose(context: Context, functions: tuple[str, ...] = ()) -> str:
    """Who states the constant, default or activation the sentence gives as right at `context`:
    "the student API's" for the shipped reference's functions (docs/student-api.md gives their
    defaults, LayerNorm's eps, the scale and GELU; of `functions` only, where given), else "the
    model solution's" (a course's own function). Never "the lecture's": its text states none of
    these (blind round 55)."""
    function = context.instance.function
    shipped = getattr(function, "__module__", "").startswith("grader.reference")
    return ("the student API's" if shipped and (not functions or function.__name__ in functions)
            else "the model solution's")


def slug(text: str) -> str:
    """A stable piece of a mistake's name: no spaces, no '+' (it joins a combination)."""
    return re.sub(r"[^\w.=\-\[\]'()]", "", text.replace("+", "plus"))[:40]


STEP = "at the model solution's step"  # where() places an edit in a helper's call so
# a sentence `where()` opens ("In `f` (at the model solution's step `s`), the rest"), read back:
# (the function, its step or None, the rest) - slips.py tells several such sentences as one
PLACED = re.compile(rf"In (`[^`]+`)(?: \({STEP} (`[^`]+`)\))?, (.+)", re.S)


def where(context: Context) -> str:
    """"`softmax`" or "`encoder_block` (at the model solution's step `mlp(...)`)": the step is
    quoted as the model solution's code writes it, which a student's code may not (its own names,
    no call)."""
    steps = context.instance.path.split("/")[1:]
    if not steps:
        return f"`{context.root}`"
    return f"`{context.root}` ({STEP} `{code(ast.parse(context.instance.call).body[0])}`)"


def callee(node: ast.Call) -> str:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "call")
    return re.sub(rf"^{PREFIX}([A-Za-z_]*[A-Za-z])(?:_\d+)?$", r"\1", name)


def keyword(node: ast.Call, key: str) -> ast.AST:
    """The value `node` gives its keyword `key`, in a rewrite; ValueError (the edit does not
    apply: runs.compiled) when it gives none, a pair's other edit having taken it away
    (`axis=None` dropped before the variance's own axis is read)."""
    found = next((k.value for k in node.keywords if k.arg == key), None)
    if found is None:
        raise ValueError(f"`{code(node)}` has no `{key}=` to rewrite any more")
    return found


def with_keyword(node: ast.Call, key: str, value: ast.AST | None) -> ast.Call:
    new = copy.copy(node)
    new.keywords = [k for k in node.keywords if k.arg != key]
    if value is not None:
        new.keywords.append(ast.keyword(key, value))
    return new


def literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return node


def with_first(node: ast.Call, arg: ast.AST) -> ast.Call:
    new = copy.copy(node)
    new.args = [arg, *node.args[1:]]
    return new


def prepended(function: ast.FunctionDef, statement: ast.stmt) -> ast.FunctionDef:
    """`function` with `statement` run first (`K = K.swapaxes(0, 1)`, `C = 3`)."""
    new = copy.copy(function)
    new.body = [copy.deepcopy(statement), *function.body]
    return new


def parameters_of(function: ast.FunctionDef) -> set[str]:
    """The names `function` takes, positional and keyword-only (not `*args`, `**kwargs`)."""
    arguments = function.args
    return {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}


def is_checked_function(context: Context, node: ast.AST) -> bool:
    """Whether `node` is the checked function's own definition (not a helper's)."""
    return (isinstance(node, ast.FunctionDef) and node is context.instance.node
            and "/" not in context.instance.path)


def near_checked(context: Context) -> bool:
    """Whether the instance is the checked function or a helper it calls itself (not a helper
    of a helper: a student-API function that has its own checks)."""
    return context.instance.path.count("/") <= 1


@functools.lru_cache(maxsize=256)
def returned(function: ast.FunctionDef) -> frozenset[int]:
    """The ids of the nodes `function` returns (`return out`: `out`'s node)."""
    return frozenset(id(statement.value) for statement in ast.walk(function)
                     if isinstance(statement, ast.Return) and statement.value is not None)


def is_result(context: Context, node: ast.AST) -> bool:
    """Whether `node` is a value the checked function itself returns (its own node: another
    operator may rewrite the return statement around it)."""
    function = context.instance.node
    return "/" not in context.instance.path and id(node) in returned(function)


def key_of(node: ast.AST) -> str | None:
    """The string key of `p['Wk']`, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
            isinstance(node.slice.value, str):
        return node.slice.value
    return None


def one_apart(a: str, b: str) -> bool:
    """Keys one character apart, that character of one kind in both: 'Wq' and 'Wk', 'ln1_g' and
    'ln2_g', 'ln1_g' and 'ln1_b' (not 'W1' and 'b1': a weight for a bias never fits)."""
    apart = [(x, y) for x, y in zip(a, b, strict=False) if x != y] if len(a) == len(b) else []
    return len(apart) == 1 and any(all(test(c) for c in apart[0]) for test in (
        str.isdigit, str.islower, str.isupper))


def step_keys(node: ast.AST) -> list[str]:
    """The string keys a call reads as arguments (`['ln1_g', 'ln1_b']`), in order; [] for
    anything else."""
    return [key_of(a) for a in getattr(node, "args", ()) if key_of(a) is not None] \
        if isinstance(node, ast.Call) else []


def steps_like(context: Context, node: ast.Call) -> list[ast.Call]:
    """The calls of the checked function to the same function as `node` that read as many keys,
    `node` among them, in the order they are written (the steps of one kind: its LayerNorms)."""
    read = len(step_keys(node))
    return sorted((n for n in ast.walk(context.instance.node) if isinstance(n, ast.Call)
                   and code(n.func) == code(node.func) and len(step_keys(n)) == read),
                  key=lambda n: (n.lineno, n.col_offset))


def key_position(read: list[str], other: list[str]) -> int | None:
    """The one position at which each key of `read` is `one_apart` from its counterpart in
    `other` (`ln1_g`/`ln2_g`, `ln1_b`/`ln2_b`: 2), else None."""
    apart = {i for k, o in zip(read, other, strict=True)
             for i, (x, y) in enumerate(zip(k, o, strict=False)) if x != y}
    return apart.pop() if len(apart) == 1 and all(
        one_apart(k, o) for k, o in zip(read, other, strict=True)) else None


def assigned_once(function: ast.FunctionDef, name: str) -> ast.Assign | None:
    """The one statement `name = <value>` of `function`, when it assigns `name` once and
    `name` is no parameter; else None."""
    if name in {a.arg for a in function.args.args}:
        return None
    assigns = [s for s in ast.walk(function) if isinstance(s, (ast.Assign, ast.AugAssign,
                                                               ast.AnnAssign))
               and any(isinstance(t, ast.Name) and t.id == name
                       for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))]
    if len(assigns) != 1 or not isinstance(assigns[0], ast.Assign) or \
            len(assigns[0].targets) != 1:
        return None
    return assigns[0]


class Replaced(ast.NodeTransformer):
    """The one node `old` (by identity) replaced by `new`."""

    def __init__(self, old: ast.AST, new: ast.AST):
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> ast.AST:
        return self.new if node is self.old else self.generic_visit(node)


class Renamed(ast.NodeTransformer):
    """Every read of the name `old` replaced by a copy of `new`."""

    def __init__(self, old: str, new: ast.AST):
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.old and isinstance(node.ctx, ast.Load):
            return copy.deepcopy(self.new)
        return node


def called_function(context: Context, node: ast.AST) -> Callable | None:
    """The reference function the call `node` calls: a helper's instance, or a student-API
    function the model leaves whole (`embed_image` in `vit_forward`); None for numpy's, a
    validation helper's, or anything else."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or \
            node.func.id in SKIPPED:
        return None
    child = context.instance.children.get(node.func.id)
    if child is not None:
        return child.function
    function = context.instance.function
    return own_function(function.__globals__.get(node.func.id), function.__module__)


def residual_sides(node: ast.AST):
    """(kept, branch, base, step) for each way a sum reads as a pre-LN residual, `x + f(step(x,
    ...), ...)` in either order: `base` the name `x`, `step` the call on it the branch is given
    (operators.residual_of_step, wiring.norm_on_stream)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return
    for kept, branch in (("left", "right"), ("right", "left")):
        base, call = getattr(node, kept), getattr(node, branch)
        if not (isinstance(base, ast.Name) and isinstance(call, ast.Call) and call.args):
            continue
        step = call.args[0]
        if (isinstance(step, ast.Call) and step.args and isinstance(step.args[0], ast.Name)
                and step.args[0].id == base.id):
            yield kept, branch, base, step


TRIANGLE_MAKERS = ("tri", "tril", "triu")  # numpy's triangles: the helper builds a causal mask


def skipped(context: Context, node: ast.Call) -> str:
    """The sentence of a helper's call left out (operators.skip). A helper that builds a
    triangle (`np.tri`) is a causal mask: without it every score is seen, the outputs that code
    with no mask gives and code whose fill is too small to hide anything after the softmax
    gives (fleet_compiler's numpy GPT-2, `(1 - np.tri(n)) * -1e-10`): the cases cannot tell
    the two apart, so the sentence says both."""
    child = context.instance.children[node.func.id]
    if any(isinstance(n, ast.Attribute) and n.attr in TRIANGLE_MAKERS
           for n in ast.walk(child.node)):
        return (f"In {where(context)}, the causal mask `{code(node)}` hides nothing: the scores "
                "above the diagonal are not hidden, either because no mask is applied or because "
                "its fill is too small to matter after the softmax (as -1e-10 or -1e-9 is). "
                "Fill them with -inf, or a large negative such as -1e9, before the softmax.")
    name, given = step_named(child.name, node)
    return f"In {where(context)}, {name} is left out: {given}."


# each step of the lecture a helper of the reference computes, in the lecture's words, and what
# goes on in its place (a left out step's sentence, `skipped`): the student's code may hold no
# such helper, nor the reference's names (blind round 59: "the step is left out: `out` goes on
# as it is", the step's quote dropped as none of the student's code, `out` a name their code
# does not have)
STEP_NAMES = {
    "layer_norm": "the LayerNorm", "softmax": "the softmax", "gelu": "the GELU",
    "attention": ("the attention of each head (softmax(q k^T / sqrt(d_h)) v)",
                  "the queries go on as they are"),
    "split_heads": "the cut into heads", "merge_heads": "the merge of the heads' outputs",
    "patchify": "the cut into patches", "linear_patch_embed": "the patch embedding",
    "embed_image": "the embedding", "mlp": "the MLP", "self_attention": "the attention",
    "encoder_block": "the encoder block", "num_patches": "the patch count",
}
# a linear map's step by its weight's name (`linear(out, p['Wo'], p['bo'])`)
LINEAR_STEPS = {
    "Wq": "the query projection", "Wk": "the key projection", "Wv": "the value projection",
    "Wo": "the output projection", "W1": "the MLP's first layer", "W2": "the MLP's second layer",
    "W_e": "the patch embedding", "W_head": "the classification head",
}
GOES_ON = "its input goes on as it is"
TOLD_BY_PARAMETERS = frozenset({"layer_norm"})  # a step made twice in one block, told apart


def step_named(helper: str, node: ast.Call) -> tuple[str, str]:
    """(the step the call `node` of the reference's `helper` computes, named as the lecture names
    it; what goes on in its place). A linear map by its weight, with its formula (the output
    projection (`... @ p['Wo'] + p['bo']`)); another known step by its name, with the parameters
    it is given (the LayerNorm with `p['ln1_g']` and `p['ln1_b']`: one of two); any other (a
    course's own helper) as the model solution's step, quoted. Each quote is given in brackets
    or said as the model solution's: what the student's code leaves out it does not hold, and
    report/quotes.py leaves such a quote as it is."""
    if helper == "linear" and len(node.args) == 3:
        weight, bias = node.args[1], node.args[2]
        name = key_of(weight) or getattr(weight, "id", None)
        return (f"{LINEAR_STEPS.get(name, 'the linear map')} "
                f"(`... @ {code(weight)} + {code(bias)}`)", GOES_ON)
    if helper not in STEP_NAMES:
        return f"the model solution's step `{code(node)}`", GOES_ON
    name, given = STEP_NAMES[helper], GOES_ON
    if isinstance(name, tuple):
        name, given = name
    keys = [code(a) for a in node.args[1:] if key_of(a) is not None]
    if keys and helper in TOLD_BY_PARAMETERS:
        name += f" (with `{'` and `'.join(keys)}`)"
    return name, given
