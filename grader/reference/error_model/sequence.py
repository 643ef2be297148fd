"""Operators on the sequence of a function's steps: a loop over a list that leaves out its last
(or first) element (DINO's `if i < len(blocks) - 1`, a loop written for the blocks before the
last one), two residual steps that update one name in the other order (the MLP sublayer
before the attention sublayer), and a count a step is given taken as 1 whatever the caller
holds (`params.get("num_attention_heads", 1)`: a key read under another name, so every
block runs with one head), and a step given its input standardised row by row first (MAE's
per-patch normalisation) or its result standardised as it is returned (lucidrains' LayerNorm
after the patch embedding) or as the checked function's first step's result is bound (a
PatchEmbedding's norm layer), and a square root written `** 1/2`, and a loop's result never
used (tinygrad's `cls = x[0]` kept from before the blocks), or the result computed from the
second-to-last hidden state (LLaVA's `select_layer=-2`: the last block and the final norm left
out). Each is an operator as in
operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import inspect
from collections.abc import Iterator

import numpy as np

from .change import (
    Change,
    Context,
    Renamed,
    called_function,
    callee,
    code,
    is_result,
    key_of,
    slug,
    where,
)
from .inner_norm import sublayer
from .operators import ACTIVATION_CALLS
from .tree import PREFIX

SHORT = {"last": (None, -1), "first": (1, None)}  # the element left out: the slice kept


def loop_one_short(context: Context, node: ast.AST) -> Iterator[Change]:
    """`for block in params['blocks']` as `for block in params['blocks'][:-1]` (or `[1:]`):
    one element of the list never used."""
    if not (isinstance(node, ast.For) and isinstance(node.target, ast.Name)) or (
            isinstance(node.iter, ast.Call) and code(node.iter.func) in ("range", "enumerate")):
        return
    for left_out, (lower, upper) in SHORT.items():
        def bound(value):
            return None if value is None else ast.Constant(value)

        def shortened(n: ast.For, lower=lower, upper=upper) -> ast.For:
            new = copy.copy(n)
            new.iter = ast.Subscript(n.iter, ast.Slice(bound(lower), bound(upper)), ast.Load())
            return new

        kept = code(shortened(node).iter)
        yield Change(f"{node.target.id}-{left_out}-left-out",
                     f"In {where(context)}, the loop `for {node.target.id} in "
                     f"{code(node.iter)}` never reaches the {left_out} one: it runs over "
                     f"`{kept}` (a bound one short, such as `i < len(...) - 1`).", shortened)


def _loop_updates(loop: ast.For) -> set[str]:
    """The names a loop's own body assigns from their own value (`x = block(x, ...)`)."""
    return {t.id for statement in loop.body if isinstance(statement, ast.Assign)
            for t in statement.targets if isinstance(t, ast.Name)
            and any(isinstance(n, ast.Name) and n.id == t.id for n in ast.walk(statement.value))}


def loop_result_unused(context: Context, node: ast.AST) -> Iterator[Change]:
    """The statement after a loop that updates `x` reading `x` as it was before the loop: the
    loop runs and its result is never used (a row or a copy taken ahead of it, `cls = x[0]`
    before the blocks, then `layer_norm(cls)`)."""
    body = getattr(node, "body", None)
    if not isinstance(body, list):
        return
    for index, loop in enumerate(body):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
            continue
        after = body[index + 1] if index + 1 < len(body) else None
        for name in sorted(_loop_updates(loop)) if after is not None else ():
            if not any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                       for n in ast.walk(after)):
                continue

            def unused(n: ast.AST, index=index, name=name) -> ast.AST:
                before = f"{PREFIX}before_loop_{name}"
                statements = n.body
                following = Renamed(name, ast.Name(before, ast.Load())).visit(
                    copy.deepcopy(statements[index + 1]))
                new = copy.copy(n)
                new.body = [*statements[:index],
                            ast.Assign([ast.Name(before, ast.Store())], ast.Name(name, ast.Load())),
                            statements[index], following, *statements[index + 2:]]
                return new

            yield Change(f"{name}-from-before-{loop.target.id}-loop",
                         f"In {where(context)}, `{code(after)}` reads `{name}` as it was before "
                         f"the loop `for {loop.target.id} in {code(loop.iter)}`: the loop runs "
                         f"but its result is never used (a row or a copy of `{name}` taken "
                         f"ahead of it, such as `cls = {name}[0]`, goes on in its place).",
                         unused)


def penultimate_state(context: Context, node: ast.AST) -> Iterator[Change]:
    """The result computed from the second-to-last hidden state: the loop's last step and the
    steps after the loop that update its name left out, `hidden_states[-2]` (LLaVA's
    `select_layer=-2`, Stable Diffusion's CLIP skip: the output before the last block, with no
    final norm). Only the checked function's own top-level loop over a list, `x = step(x, ...)`,
    followed by at least one `x = f(x, ...)`."""
    if not (isinstance(node, ast.FunctionDef) and "/" not in context.instance.path):
        return
    body = node.body
    for index, loop in enumerate(body):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                and not (isinstance(loop.iter, ast.Call)
                         and code(loop.iter.func) in ("range", "enumerate"))):
            continue
        names = _loop_updates(loop)
        after = 0
        for statement in body[index + 1:]:
            if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                    and statement.targets[0].id in names):
                break
            after += 1
        if not after:
            continue
        dropped = body[index + 1:index + 1 + after]

        def penultimate(n: ast.FunctionDef, index=index, after=after) -> ast.FunctionDef:
            new, old = copy.copy(n), n.body[index]
            short = copy.copy(old)
            short.iter = ast.Subscript(old.iter, ast.Slice(None, ast.Constant(-1)), ast.Load())
            new.body = [*n.body[:index], short, *n.body[index + 1 + after:]]
            return new

        steps = " and ".join(f"`{code(s)}`" for s in dropped)
        yield Change(f"{loop.target.id}-loop-penultimate",
                     f"In {where(context)}, the result is computed from the second-to-last "
                     f"hidden state: the loop `for {loop.target.id} in {code(loop.iter)}` "
                     f"stops before its last one, and {steps} after it "
                     f"{'is' if after == 1 else 'are'} left out (as "
                     "LLaVA's `select_layer=-2` and Stable Diffusion's CLIP skip read CLIP's "
                     "features). The model solution's result reads the stream after every step of "
                     "the loop and those after it.", penultimate)


def _residual(statement: ast.stmt) -> tuple[str, ast.AST] | None:
    """(n, the branch) for `n = n + branch` or `return n + branch`."""
    value = statement.value if isinstance(statement, (ast.Assign, ast.Return)) else None
    if isinstance(statement, ast.Assign) and not (
            len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
        return None
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)
            and isinstance(value.left, ast.Name)):
        return None
    if isinstance(statement, ast.Assign) and statement.targets[0].id != value.left.id:
        return None
    return value.left.id, value.right


def residuals_swapped(context: Context, node: ast.AST) -> Iterator[Change]:
    """Two residual steps that follow each other in the other order: `x = x + attn(...)`
    then `return x + mlp(...)` as `x = x + mlp(...)` then `return x + attn(...)`."""
    if not isinstance(node, ast.FunctionDef):
        return
    for i, (first, second) in enumerate(zip(node.body, node.body[1:], strict=False)):
        a, b = _residual(first), _residual(second)
        if a is None or b is None or a[0] != b[0] or isinstance(first, ast.Return):
            continue

        def swapped(n: ast.FunctionDef, i=i) -> ast.FunctionDef:
            new = copy.copy(n)
            one, two = copy.deepcopy(n.body[i]), copy.deepcopy(n.body[i + 1])
            one.value.right, two.value.right = two.value.right, one.value.right
            new.body = [*n.body[:i], one, two, *n.body[i + 2:]]
            return new

        steps = "-".join(slug(callee(branch)) if isinstance(branch, ast.Call) else "term"
                         for branch in (a[1], b[1]))
        yield Change(f"residuals-{steps}-swapped",
                     f"In {where(context)}, the two residual steps come in the other order: "
                     f"`{a[0]} + {code(b[1])}` first, then `{a[0]} + {code(a[1])}`; the lecture "
                     f"has `{code(first)}` first.", swapped)


def _parameters(context: Context) -> set[str]:
    function = context.instance.node
    return {a.arg for a in function.args.args} if isinstance(function, ast.FunctionDef) else set()


def count_as_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step given `params['heads']` (or its caller's own parameter `heads`) for its parameter
    `heads` run with 1 instead, whatever it holds (the key read under another name, with a
    default of 1; the argument left out of a call whose default is 1)."""
    function = called_function(context, node)
    if function is None:
        return
    parameters = list(inspect.signature(function).parameters)
    for index, argument in enumerate(node.args[:len(parameters)]):
        passed_on = isinstance(argument, ast.Name) and argument.id in _parameters(context)
        key = key_of(argument) or (argument.id if passed_on else None)  # a caller's own count
        if key is None or key != parameters[index]:
            continue

        def one(n: ast.Call, index=index) -> ast.Call:
            new = copy.copy(n)
            new.args = [*n.args[:index], ast.Constant(1), *n.args[index + 1:]]
            return new

        yield Change(f"{key}-as-1",
                     f"In {where(context)}, `{code(node)}` runs with {key} = 1 whatever "
                     f"`{code(argument)}` holds: pass `{code(argument)}` itself.", one)


def _counts_passed_on(context: Context) -> list[str]:
    """The checked function's parameters that it passes on to a step under the step's own
    parameter name, after the step's input (`split_heads(..., heads)`): counts such as
    `heads`."""
    found = []
    for call in ast.walk(context.instance.node):
        function = called_function(context, call) if isinstance(call, ast.Call) else None
        if function is None:
            continue
        names = list(inspect.signature(function).parameters)
        found += [a.id for a, name in zip(call.args[1:], names[1:], strict=False)
                  if isinstance(a, ast.Name) and a.id == name and a.id in _parameters(context)
                  and a.id not in found]  # not the step's input, its first argument
    return found


def last_step_skipped_for_one(context: Context, node: ast.AST) -> Iterator[Change]:
    """The step the checked function returns, `linear(out, W, b)`, skipped when a count it
    passes on is 1 (lucidrains' vit-pytorch: `project_out = not (heads == 1 and dim_head ==
    dim)`, an identity in place of the output projection with one head)."""
    if not (is_result(context, node) and isinstance(node, ast.Call) and node.args
            and called_function(context, node) is not None):
        return
    for count in _counts_passed_on(context):
        skipped = ast.parse(f"{ast.unparse(node.args[0])} if {count} == 1 else _",
                            mode="eval").body
        yield Change(f"{slug(callee(node))}-skipped-for-{count}-1",
                     f"In {where(context)}, the last step `{code(node)}` is skipped when "
                     f"`{count}` is 1, `{code(node.args[0])}` returned as it is, as some "
                     f"code does (lucidrains' `project_out = not (heads == 1 and dim_head == "
                     f"dim)`, an identity then), where the lecture applies it whatever `{count}` "
                     "is.",
                     lambda n, skipped=skipped: ast.IfExp(
                         copy.deepcopy(skipped.test), copy.deepcopy(n.args[0]), n))


def standardised(x, ddof: int = 0, eps: float = 1e-6):
    """`x` [..., n] with each row standardised, (x - mean) / sqrt(var + eps), its variance
    with `ddof` (1: torch's `var` default, as MAE's `norm_pix_loss` ported); an input that is
    no numeric array of at least one axis is returned as it is."""
    x = np.asarray(x)
    if x.ndim < 1 or not np.issubdtype(x.dtype, np.number) or x.shape[-1] <= ddof:
        return x
    x = x if np.issubdtype(x.dtype, np.floating) else x.astype(float)  # integer pixels too
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, ddof=ddof, keepdims=True) + eps)


def standardised_unbiased(x):
    return standardised(x, ddof=1)


def standardised_torch(x):
    """`x` standardised row by row with torch's `nn.LayerNorm` default eps, 1e-5."""
    return standardised(x, eps=1e-5)


def standardised_first(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step of the checked function given its input with each row standardised first, no
    gain or shift (MAE's per-patch `norm_pix` carried into the embedding): `linear(patchify(
    image, P), W_e, b_e)` as `linear(standardised(patchify(image, P)), W_e, b_e)`."""
    if not (context.instance.path == context.root and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id in context.instance.children
            and node.args):
        return
    inner = node.args[0]
    if not (isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in
            context.instance.children):
        return  # only a step's output: a parameter, a row or a size is not standardised
    readings = (("biased", "np.var", standardised),
                ("unbiased", "torch's var, ddof=1", standardised_unbiased))
    if sublayer(context.instance.children[node.func.id]):  # the step's own norm of its input
        readings = readings[1:]  # (inner_norm.py, which tells it as the step's): not twice
    for detail, words, function in readings:
        bound = f"{PREFIX}standardised_{detail}"
        yield Change(f"standardised-{detail}-before-{callee(node)}",
                     f"In {where(context)}, each row of `{code(inner)}` is standardised, "
                     f"(x - mean) / sqrt(var + 1e-6) with {words}, before the step "
                     f"`{code(node)}` (as MAE's per-patch normalisation): the lecture passes it "
                     "on as it is.",
                     lambda n, bound=bound: ast.Call(n.func, [ast.Call(
                         ast.Name(bound, ast.Load()), [n.args[0]], []), *n.args[1:]],
                         n.keywords),
                     ((bound, function),))


def standardised_after(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step's result standardised row by row, no gain or shift, as it is returned
    (lucidrains' `nn.LayerNorm(dim)` after the patch embedding's `nn.Linear`): `linear(...)` as
    `standardised(linear(...))`. Only the checked function's own step."""
    step = node.value if isinstance(node, ast.Return) else None  # the statement, not the
    if not (context.instance.path == context.root and isinstance(step, ast.Call)  # call: its
            and isinstance(step.func, ast.Name)  # input may be standardised too (a pair)
            and step.func.id in context.instance.children):
        return
    bound = f"{PREFIX}standardised_biased"
    yield Change(f"standardised-after-{callee(step)}",
                 f"In {where(context)}, each row of `{code(step)}` is standardised, (x - mean) "
                 "/ sqrt(var + eps), before it is returned (a LayerNorm without its gain and "
                 "shift after the step, as lucidrains' ViT wraps its patch embedding): the "
                 "lecture returns it as it is.",
                 lambda n: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [n.value], [])),
                 ((bound, standardised),))


def _bound_steps(context: Context) -> list[ast.Assign]:
    """The statements of the function's own body that bind one name to a step's result (a
    helper's or a student-API function's the model leaves whole)."""
    return [s for s in context.instance.node.body if isinstance(s, ast.Assign)
            and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and called_function(context, s.value) is not None]


def standardised_bound(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's first step, a layer given its own inputs and weights only,
    standardised row by row as its result is bound, no gain or shift (a patch embedding's norm
    layer: timm's `PatchEmbed(norm_layer=nn.LayerNorm)`, Swin's `patch_norm=True`, a ViT's
    `PatchEmbedding` with `self.norm = nn.LayerNorm(embed_dim)` after its projection):
    `x = linear_patch_embed(...)` as `x = standardised(linear_patch_embed(...))`."""
    if not (isinstance(node, ast.Assign) and context.instance.path == context.root
            and isinstance(node.value, ast.Call)):
        return
    steps = _bound_steps(context)
    if not steps or steps[0] is not node:
        return  # only the first step's result: the embedding the function starts from
    own = _parameters(context)
    if not own or any(isinstance(n, ast.Name) and n.id not in own
                      for a in (*node.value.args, *(k.value for k in node.value.keywords))
                      for n in ast.walk(a)):
        return  # a step given the function's own inputs only
    if not any(key_of(a) for a in node.value.args):
        return  # a layer given its weights (`params['W_e']`), not a whole pipeline's step
    bound = f"{PREFIX}standardised_torch"
    yield Change(f"standardised-{callee(node.value)}",
                 f"In {where(context)}, each row of `{code(node.value)}` is standardised, "
                 "(x - mean) / sqrt(var + eps), as soon as it is computed (a LayerNorm with no "
                 "gain or shift on the step's output, as a patch embedding's norm layer, "
                 "`norm_layer=nn.LayerNorm` in timm's PatchEmbed): the lecture uses the step's "
                 "result as it is.",
                 lambda n: ast.Assign(n.targets, ast.Call(ast.Name(bound, ast.Load()),
                                                          [n.value], []), lineno=n.lineno),
                 ((bound, standardised_torch),))


def standardised_before_activation(context: Context, node: ast.AST) -> Iterator[Change]:
    """A dense layer's output standardised row by row, no gain or shift, before the activation
    it goes into: `activation(linear(x, W1, b1))` as `activation(standardised(linear(...)))`, a
    parameter-free LayerNorm between a Dense and its activation (nikosips/UDON's Flax `Mlp`,
    `nn.Dense`, `nn.LayerNorm()`, `nn.gelu` for each layer but the last; the Dense, norm,
    activation order of SimCLR's and BYOL's projection MLPs), eps 1e-6 (Flax's `nn.LayerNorm`
    default and the course's). Only in the checked function or a helper it calls itself."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ACTIVATION_CALLS and len(node.args) == 1
            and context.instance.path.count("/") <= 1):
        return
    inner = node.args[0]
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
            and inner.func.id in context.instance.children):
        return  # only a step's output (a dense layer's) going into the activation
    bound, name = f"{PREFIX}standardised_biased", node.func.id
    yield Change(f"standardised-before-{name}",
                 f"In {where(context)}, each row of `{code(inner)}` is standardised, (x - mean) "
                 f"/ sqrt(var + eps), before it goes through `{name}(...)` (a LayerNorm with no "
                 "gain or shift between the dense layer and its activation, as a Flax `Mlp` of "
                 "`nn.Dense`, `nn.LayerNorm()`, `nn.gelu`): the lecture applies the activation "
                 "to the dense layer's output as it is.",
                 lambda n, bound=bound: ast.Call(n.func, [ast.Call(
                     ast.Name(bound, ast.Load()), [n.args[0]], [])], n.keywords),
                 ((bound, standardised),))


def precedence(context: Context, node: ast.AST) -> Iterator[Change]:
    """A conditional term added without its brackets: `n + (1 if cls_token else 0)` written
    `n + 1 if cls_token else 0`, which Python reads `(n + 1) if cls_token else 0`."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.right, ast.IfExp)):
        return
    choice = node.right
    unbracketed = ast.IfExp(choice.test, ast.BinOp(node.left, node.op, choice.body),
                            choice.orelse)
    yield Change(f"{slug(code(choice.test))}-unbracketed",
                 f"In {where(context)}, `{code(node)}` is written without the brackets around "
                 f"the conditional, which Python reads as `{code(unbracketed)}`: the whole sum, "
                 f"not only its last term, depends on `{code(choice.test)}`.",
                 lambda n: ast.IfExp(n.right.test, ast.BinOp(n.left, n.op, n.right.body),
                                     n.right.orelse))


def half_power(context: Context, node: ast.AST) -> Iterator[Change]:
    """A division by a square root written with `** 1/2`: `a / math.sqrt(v)` as `a / v ** 1/2`,
    which Python reads `(a / v ** 1) / 2`, or `a / (v ** 1/2)`, which is `a / (v / 2)`."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.right, ast.Call) and callee(node.right) == "sqrt"
            and len(node.right.args) == 1):
        return
    a, v = code(node.left), code(node.right.args[0])
    for detail, typed, reads, replace in (
            ("unbracketed", f"{a} / {v} ** 1/2", f"({a} / {v}) / 2",
             lambda n: ast.BinOp(ast.BinOp(n.left, ast.Div(), n.right.args[0]), ast.Div(),
                                 ast.Constant(2))),
            ("bracketed", f"{a} / ({v} ** 1/2)", f"{a} / ({v} / 2)",
             lambda n: ast.BinOp(n.left, ast.Div(), ast.BinOp(n.right.args[0], ast.Div(),
                                                              ast.Constant(2))))):
        yield Change(f"sqrt-as-half-power-{detail}",
                     f"In {where(context)}, the square root is written as a power `** 1/2`, "
                     f"`{typed}`, which Python reads `{reads}` (`**` binds before `/`): "
                     f"write `** 0.5` or `math.sqrt`, `{code(node)}`.", replace)


OPERATORS = {"precedence": precedence, "half_power": half_power, "loop_short": loop_one_short,
             "residuals_swapped": residuals_swapped, "count_as_one": count_as_one,
             "standardised": standardised_first,
             "standardised_after": standardised_after,
             "standardised_bound": standardised_bound,
             "standardised_before_activation": standardised_before_activation,
             "loop_unused": loop_result_unused,
             "penultimate": penultimate_state,
             "skipped_for_one": last_step_skipped_for_one}  # tried after inputs.OPERATORS
