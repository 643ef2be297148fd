"""An operator on attention's three projections written without their biases, one slip for all
three: `nn.Linear(n_embd, head_size, bias=False)` for the key, the query and the value (Karpathy's
nanoGPT / "Let's build GPT" `Head`, AviSoori1x/seemore's `Head`, lucidrains' `to_qkv =
nn.Linear(dim, inner_dim * 3, bias=False)`, timm's `Attention(qkv_bias=False)` default), the
output projection keeping its bias (`self.proj = nn.Linear(n_embd, n_embd)`).

The reference projects each with its own call of the affine helper, `q = split_heads(linear(x,
p["Wq"], p["bq"]), heads)` and likewise k and v, so the search's singles leave out one bias at
a time and its pairs two: the three left out together with a second mistake (the scores scaled
by the whole width, seemore's `C ** -0.5`) would take three edits, which the search never tries.
This operator makes the three one edit. Only in the checked function's own code, and only where
three such statements come one after another (the function that projects q, k and v itself).

The key's bias changes no attention weight (it adds q . bk to every score of a query, which the
softmax takes away), so the values show the query's and the value's biases left out: the sentence
says so, and the rewrite leaves out all three, as the code it models does.
Operators as in operators.py.
"""
from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from .change import Change, Context, callee, code, is_checked_function, where


def projection(statement: ast.stmt) -> tuple[str, ast.Call] | None:
    """(target, the affine call) of `q = split_heads(linear(x, W, b), heads)`, else None."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call) and callee(statement.value) == "split_heads"
            and statement.value.args and isinstance(statement.value.args[0], ast.Call)
            and callee(statement.value.args[0]) == "linear"
            and len(statement.value.args[0].args) == 3 and not statement.value.args[0].keywords):
        return None
    return statement.targets[0].id, statement.value.args[0]


def three_projections(function: ast.FunctionDef) -> int | None:
    """The index of the first of three `projection` statements in a row of the body, reading
    one input, else None."""
    found = [projection(s) for s in function.body]
    for i in range(len(found) - 2):
        if all(found[i:i + 3]) and len({code(f[1].args[0]) for f in found[i:i + 3]}) == 1:
            return i
    return None


def qkv_bias_free(context: Context, node: ast.AST) -> Iterator[Change]:
    """The three projections' biases all left out, `x @ Wq`, `x @ Wk`, `x @ Wv` (nn.Linear with
    bias=False), the output projection's kept."""
    if not is_checked_function(context, node):
        return
    start = three_projections(node)
    if start is None:
        return
    parts = [projection(s) for s in node.body[start:start + 3]]

    def unbiased(n: ast.FunctionDef) -> ast.FunctionDef:
        new, body = copy.copy(n), list(n.body)
        for j in range(start, start + 3):
            statement = copy.deepcopy(body[j])
            statement.value.args[0].args[2] = ast.Constant(0.0)
            body[j] = statement
        new.body = body
        return new

    names = f"{parts[0][0]}, {parts[1][0]} and {parts[2][0]}"
    products = ", ".join(f"`{code(call.args[0])} @ {code(call.args[1])}`" for _, call in parts)
    biases = ", ".join(f"`{code(call.args[2])}`" for _, call in parts)
    key = code(parts[1][1].args[2])
    yield Change("qkv-without-bias",
                 f"In {where(context)}, {names} are projected without their biases: {products} "
                 f"(as a projection built with bias=False does: nanoGPT's attention `Head` builds "
                 f"its key, query and value with `nn.Linear(n_embd, head_size, bias=False)`), "
                 f"where the lecture adds {biases} to them (the output projection keeps its bias "
                 f"in both). "
                 f"`{key}` alone would change nothing, the softmax cancels it; the others show.",
                 unbiased)


OPERATORS = {"qkv_bias_free": qkv_bias_free}
