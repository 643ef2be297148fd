"""A softmax written in log-sum-exp form, `exp(x - logsumexp(x))`, whose log-sum-exp takes its
max over the whole array and only its sum along the axis: `m = max(x); m + log(sum(exp(x - m)))`
(R's `logsumexp` gists, where `max(x)` has no axis; numpy ports' `c = x.max()`). On one slice
it is the lecture's softmax; a slice far below the array's maximum has every exp underflow to
0, its log-sum-exp is -inf, and it comes out inf, where the lecture's exp/sum form with the same
max (`operators.axis`'s `max.axis=None`) gives 0 / 0 = NaN: so the form is rewritten too, the
student's very values, never a NaN taken for an inf. Only at the checked function itself when it
is the lecture's stable softmax, `e = np.exp(x - np.max(x, axis=..., keepdims=True))` returned as
`e / np.sum(e, axis=..., keepdims=True)`. An operator as in operators.py.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, code, is_checked_function, where


def _stable_softmax(node: ast.FunctionDef) -> tuple[ast.Assign, ast.Return] | None:
    """The function's `e = np.exp(x - np.max(x, axis=...))` and `return e / np.sum(e, ...)`."""
    exps = {s.targets[0].id: s for s in node.body
            if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Call)
            and callee(s.value) == "exp" and len(s.value.args) == 1
            and isinstance(shifted := s.value.args[0], ast.BinOp)
            and isinstance(shifted.op, ast.Sub) and isinstance(shifted.right, ast.Call)
            and callee(shifted.right) == "max" and isinstance(shifted.right.func, ast.Attribute)
            and len(shifted.right.args) == 1
            and any(k.arg == "axis" for k in shifted.right.keywords)}
    last = node.body[-1]
    if not (isinstance(last, ast.Return) and isinstance(ratio := last.value, ast.BinOp)
            and isinstance(ratio.op, ast.Div) and isinstance(ratio.left, ast.Name)
            and ratio.left.id in exps and isinstance(ratio.right, ast.Call)
            and callee(ratio.right) == "sum" and ratio.right.args
            and isinstance(ratio.right.args[0], ast.Name)
            and ratio.right.args[0].id == ratio.left.id):
        return None
    return exps[ratio.left.id], last


def whole_max(context: Context, node: ast.AST) -> Iterator[Change]:
    """The stable softmax as `exp(x - (m + log(sum(exp(x - m), axis))))`, `m = np.max(x)`."""
    if not is_checked_function(context, node) or (found := _stable_softmax(node)) is None:
        return
    shift, total = found[0].value.args[0].right, found[1].value.right
    x = code(shift.args[0])
    summed = code(total).replace(f"({found[0].targets[0].id}", f"(np.exp({x} - m)", 1)

    def logsumexp_form(n: ast.FunctionDef) -> ast.FunctionDef:
        new = copy.deepcopy(n)
        exp, ret = _stable_softmax(new)
        shifted = exp.value.args[0]
        shifted.right = ast.Call(shifted.right.func, [shifted.right.args[0]], [])  # np.max(x)
        def np_(name: str) -> ast.Attribute:  # `np.log`, with the reference's own `np`
            return ast.Attribute(copy.deepcopy(shifted.right.func.value), name, ast.Load())

        log = ast.Call(np_("log"), [ret.value.right], [])
        ret.value = ast.Call(np_("exp"), [ast.BinOp(
            copy.deepcopy(shifted.left), ast.Sub(),
            ast.BinOp(copy.deepcopy(shifted.right), ast.Add(), log))], [])
        return new

    yield Change("logsumexp-max-over-whole-array",
                 f"In {where(context)}, the softmax is taken as `exp({x} - logsumexp({x}))` with "
                 f"the log-sum-exp's max over the whole array, `m = np.max({x})`, and only its sum "
                 f"along the axis, `m + np.log({summed})`, as some code does (R's `y <- max(x); "
                 "y + log(sum(exp(x - y)))`), where the model solution's max is each slice's own, "
                 f"`{code(shift)}`: a "
                 "slice about 745 or more below the array's maximum has every exp underflow to 0, "
                 "its log-sum-exp is -inf and the slice comes out inf (a little less far, it loses "
                 "digits). Take the max along the same axis as the sum, with keepdims=True.",
                 logsumexp_form)


OPERATORS = {"logsumexp_max": whole_max}
# the same max in the lecture's exp/sum form: where both reproduce every call, no slice of them
# underflowed (inf against NaN), and that one is named (plain_forms.py)
PLAIN = {"logsumexp-max-over-whole-array": "max.axis=None"}
