"""Operators on the type of a function's values: the result narrowed to its input's dtype (or
an array it assembles, also inside a step it calls whole); the input cast to a narrower float
first.

A loop port fills an output buffer made like its input (`np.zeros(..., dtype=image.dtype)`, cs231n's
conv_forward_naive, `np.zeros_like(x)`): right for float inputs, while an 8-bit image's float
results are cut (and wrapped) to 8-bit integers, as numpy's assignment into the buffer does.
An operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import functools
import itertools
from collections.abc import Iterator

import numpy as np

from .change import (
    CAST,
    Change,
    Context,
    called_function,
    code,
    is_checked_function,
    is_result,
    prepended,
    where,
)
from .tree import PREFIX, Edit, Site, build, compile_with, nodes


def _cut(what: str) -> str:
    """What an integer image's dtype does to `what` ("the sums"), as each sentence says it."""
    return (f"while for integer pixels (uint8, as a file gives them) {what} are cut to integers "
            f"(and wrapped into 0..255 for uint8)")


def like_input(value, given):
    """`value` as an array of `given`'s dtype (numpy's cast, as assigning into a buffer made like
    `given` casts); `value` itself when `given` is no array or `value` no float array."""
    value, dtype = np.asarray(value), getattr(given, "dtype", None)
    if dtype is None or not np.issubdtype(value.dtype, np.floating):
        return value
    return value.astype(dtype)


def _cast_like(given: str):
    """(replace, names) of a Change that casts a node to the dtype of the parameter `given`."""
    bound = f"{PREFIX}like_input"
    return (lambda n: ast.Call(ast.Name(bound, ast.Load()), [n, ast.Name(given, ast.Load())], []),
            ((bound, like_input),))


def narrowed(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's result in its first argument's dtype: `return out` where `out` was
    made with the image's dtype."""
    function = context.instance.node
    if not (function.args.args and is_result(context, node)):
        return
    given = function.args.args[0].arg
    yield Change(f"result-in-{given}-dtype",
                 f"In {where(context)}, the result takes `{given}`'s dtype (as a buffer made with"
                 f" `np.zeros(..., dtype={given}.dtype)` or `np.zeros_like({given})` does): "
                 f"right for a float `{given}`, {_cut('the float results')}. Make the output "
                 f"float.",
                 *_cast_like(given))


def added_in_place(value, bias, given):
    """`value` written into a buffer of `given`'s dtype, then `bias` added to it in place (`out
    += b`): numpy refuses to cast a float sum into an integer buffer (its UFuncTypeError)."""
    out = np.array(like_input(value, given))
    out += bias
    return out


def bias_in_place(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's result `A + b` (`b` a parameter: the bias) made by a loop port
    that fills a buffer made like its first argument, then adds the bias in place: MLBites'
    conv2d_forward, `out = np.zeros(..., dtype=x.dtype)`, the window loops, `out +=
    bias.reshape(1, -1, 1, 1)`; cs231n-style loops ending `out += b`."""
    function = context.instance.node
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Name) and function.args.args
            and function.args.args[0].arg == "image"  # pixels, perhaps 8-bit
            and node.right.id in {a.arg for a in function.args.args[1:]}
            and is_result(context, node)):
        return
    given, bias, bound = function.args.args[0].arg, node.right.id, f"{PREFIX}added_in_place"
    yield Change(f"{bias}-added-in-place-in-{given}-dtype",
                 f"In {where(context)}, `{code(node.left)}` is written into a buffer in "
                 f"`{given}`'s dtype and `{bias}` is added to it in place (`out = np.zeros(..., "
                 f"dtype={given}.dtype)`, then `out += {bias}`): right for a float `{given}`, "
                 f"{_cut('the sums')} and numpy refuses to add a float `{bias}` in place (a "
                 f"casting error). Make the buffer float.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()),
                                    [n.left, n.right, ast.Name(given, ast.Load())], []),
                 ((bound, added_in_place),))


def narrowed_before_bias(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's result `A + b` (`b` one of its parameters: the bias) with `A`
    narrowed to its first argument's dtype and `b` added after, out of place: a loop port that
    fills a buffer made like its input, then returns `out + b` (NPBench's conv2d, `output =
    np.empty(..., dtype=input.dtype)` filled window by window; cs231n-style loops). Where `A`
    is already in that dtype (integer patches cut from integer pixels) nothing changes."""
    function = context.instance.node
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Name) and function.args.args
            and function.args.args[0].arg == "image"  # pixels, perhaps 8-bit: not a
            # LayerNorm's `x_hat * gamma + beta`, a no-op on float tokens the search would try
            and node.right.id in {a.arg for a in function.args.args[1:]}
            and is_result(context, node)):
        return
    given, bias = function.args.args[0].arg, node.right.id
    cast, names = _cast_like(given)
    yield Change(f"{bias}-added-after-{given}-dtype",
                 f"In {where(context)}, `{code(node.left)}` is written into a buffer made with "
                 f"`{given}`'s dtype (`out = np.empty(..., dtype={given}.dtype)` or "
                 f"`np.zeros_like`, filled in a loop) before `{bias}` is added: right for a "
                 f"float `{given}`, while for integer pixels (uint8, as a file gives them) each "
                 f"float sum is cast to that integer dtype as numpy casts (the fraction dropped, "
                 f"a value outside its range not kept) before `{bias}` is added in floats. Make "
                 f"the buffer float.",
                 lambda n: ast.BinOp(cast(n.left), ast.Add(), n.right), names)


# numpy's functions that assemble one array from parts: a loop port fills a buffer instead
ASSEMBLED = ("vstack", "concatenate", "stack", "hstack")


def assembled_narrowed(context: Context, node: ast.AST) -> Iterator[Change]:
    """An array assembled from parts (`np.vstack([cls, x])`) in its function's first argument's
    dtype: a buffer made with `np.zeros((N + 1, d), dtype=image.dtype)` and filled row by row,
    the steps after it computing in floats again."""
    function = context.instance.node
    if not (function.args.args and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr in ASSEMBLED
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "np"):
        return
    given = function.args.args[0].arg
    yield Change(f"{node.func.attr}-in-{given}-dtype",
                 f"In {where(context)}, `{code(node)}` is built in `{given}`'s dtype (as a "
                 f"buffer made with `np.zeros(..., dtype={given}.dtype)` and filled row by row "
                 f"is): right for a float `{given}`, {_cut('its float rows')}. Make the buffer "
                 f"float.",
                 *_cast_like(given))


@functools.cache
def _assembled_in_input_dtype(function):
    """`function` (a student-API step) with the one array it assembles (`np.vstack([cls,
    x])`) narrowed to its first argument's dtype, and that array's code; else None (none, or
    several)."""
    root = build(function)
    if root is None:
        return None
    found = [(Edit("assembled_narrowed", Site(root.path, index), change.detail, "",
                   change.replace, change.names), code(node))
             for index, (node, _, _, _) in enumerate(nodes(root.node))
             for change in assembled_narrowed(Context(root.name, root), node)]
    return (compile_with(root, [found[0][0]]), found[0][1]) if len(found) == 1 else None


def step_assembled_narrowed(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step the checked function calls whole (`embed_image(image, params)`, a student-API
    function built on others) written out inline with the array it assembles narrowed to the
    image's dtype: `x = np.zeros((N + 1, d), dtype=image.dtype)`, `x[0] = cls`, `x[1:] =
    patches`, then the positions added in floats (assembled_narrowed in the step's own code,
    which the model leaves whole here)."""
    function = context.instance.node
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args
            and "/" not in context.instance.path and function.args.args
            and node.func.id not in context.instance.children
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == function.args.args[0].arg):
        return
    step = called_function(context, node)
    narrowed_step = None if step is None else _assembled_in_input_dtype(step)
    if narrowed_step is None:
        return
    given, bound = node.args[0].id, f"{PREFIX}{step.__name__}_narrowed"
    yield Change(f"{step.__name__}-assembled-in-{given}-dtype",
                 f"In {where(context)}, the array that `{code(node)}` assembles, "
                 f"`{narrowed_step[1]}`, is built in `{given}`'s dtype (as a buffer made with "
                 f"`np.zeros(..., dtype={given}.dtype)` and filled row by row is): right for a "
                 f"float `{given}`, {_cut('its float rows')} before the steps after it. Make the "
                 f"buffer float.",
                 lambda n: ast.Call(ast.Name(bound, ast.Load()), n.args, n.keywords),
                 ((bound, narrowed_step[0]),))


# float type: (digits it keeps, whose habit it is)
PRECISIONS = {"float16": ("about 3", "half precision, as mixed-precision code (MLX, PyTorch's "
                          "autocast) computes for speed"),
              "float32": ("about 7", "single precision, the default dtype of PyTorch, JAX and "
                          "Keras")}


def computed_in(context: Context, node: ast.AST) -> Iterator[Change]:
    """The checked function's first argument cast to a narrower float before anything else
    (`x = x.astype(np.float16)`): every later step rounds, and the result keeps that dtype."""
    if not (is_checked_function(context, node) and node.args.args):
        return
    given = node.args.args[0].arg
    for dtype, (digits, habit) in PRECISIONS.items():
        statement = ast.parse(f"{given} = np.asarray({given}).astype(np.{dtype})").body[0]
        yield Change(f"{given}-as-{dtype}",
                     f"In {where(context)}, `{given}` is cast to {dtype} first (`{given} = "
                     f"{given}.astype(np.{dtype})`: {habit}), so every later step rounds to "
                     f"{digits} significant digits and the result is {dtype}: compute in the "
                     f"input's own float64.",
                     lambda n, statement=statement: prepended(n, statement))


def in_half(step, *args, **kwargs):
    """`step(*args, **kwargs)` computed in float16: its float array arguments cast to float16
    (`.astype(np.float16)`, as a port of fp16 weights and activations does), its float result
    cast back to the widest float it was given (numpy promotes half precision back where it
    meets a float64 array again: the next step's weights)."""
    given = [a for a in (*args, *kwargs.values())
             if isinstance(a, np.ndarray) and np.issubdtype(a.dtype, np.floating)]

    def half(a):
        return a.astype(np.float16) if any(a is g for g in given) else a

    result = step(*map(half, args), **{k: half(v) for k, v in kwargs.items()})
    if not given or not isinstance(result, np.ndarray) or not np.issubdtype(
            result.dtype, np.floating):
        return result
    return result.astype(np.result_type(*given))


def _steps_on(function: ast.FunctionDef, given: str) -> list[ast.AST]:
    """The steps of `function` that take `given` itself (`linear(x, p['Wq'], p['bq'])`, `x @
    W`), not a size read off it (`x.shape[-1]`), before `given` is assigned again."""
    if any(isinstance(n, ast.Name) and n.id == given and isinstance(n.ctx, ast.Store)
           for n in ast.walk(function)):
        return []  # `x = ...` later: which `x` a step takes is not the argument
    return [n for n in ast.walk(function)
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and any(isinstance(a, ast.Name) and a.id == given for a in n.args))
            or (isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult)
                and isinstance(n.left, ast.Name) and n.left.id == given)]


def rounded_steps(detail: str) -> frozenset[int]:
    """The steps (from 1) a `steps_in` rewrite's detail (`steps-1-3-on-x-as-float16`) computes
    in float16."""
    return frozenset(int(i) for i in detail.split("-on-")[0].split("-")[1:])


def steps_in(context: Context, node: ast.AST) -> Iterator[Change]:
    """Each step the checked function applies to its first argument computed in float16, its
    result back in float64 after it: MiniGPT-4's EVA ViT (`convert_weights_to_fp16`,
    `vit_precision="fp16"`) ported as `x.astype(np.float16) @ qkv_weight.astype(np.float16)` for
    the q, k and v projections, the output projection in float64 again. Its values are defined
    only up to float16's rounding (`Change.rounding`): two codes of it round in other orders."""
    if not (is_checked_function(context, node) and node.args.args):
        return
    given = node.args.args[0].arg
    steps = _steps_on(node, given)
    if not 2 <= len(steps) <= 4:
        return  # one step on the input: computed_in's cast of the input says it
    bound = f"{PREFIX}in_half"

    class Halved(ast.NodeTransformer):
        def __init__(self, wanted: set[int]):
            self.wanted = wanted

        def visit_Call(self, n):  # noqa: N802 - ast's naming
            self.generic_visit(n)
            if id(n) not in self.wanted:
                return n
            return ast.Call(ast.Name(bound, ast.Load()), [n.func, *n.args], n.keywords)

        def visit_BinOp(self, n):  # noqa: N802
            self.generic_visit(n)
            if id(n) not in self.wanted:
                return n
            return ast.Call(ast.Name(bound, ast.Load()),
                            [ast.parse("np.matmul", mode="eval").body, n.left, n.right], [])

    def halved(chosen: tuple[int, ...]):
        def rewrite(function: ast.FunctionDef) -> ast.FunctionDef:
            new = copy.deepcopy(function)  # the transformer edits in place, not the reference
            on = _steps_on(new, given)
            return Halved({id(on[i]) for i in chosen}).visit(new)
        return rewrite

    digits, habit = PRECISIONS["float16"]
    shown = ", ".join(f"`{code(step)}`" for step in steps)
    sentence = (f"In {where(context)}, the steps that take `{given}` (the model solution's "
                f"{shown}: all of them, or some, as the rounding of some shows little in the "
                f"result) are computed in float16 ({CAST}`{given}.astype(np.float16)`, the "
                f"weights and the biases cast too: {habit}): they keep {digits} significant "
                f"digits, so every value after them is off by about 1e-3 of its size. Keep "
                f"float64 throughout.")
    for size in range(len(steps), 0, -1):  # all of them first; the calls may not tell which
        for chosen in itertools.combinations(range(len(steps)), size):
            yield Change("steps-" + "-".join(str(i + 1) for i in chosen) +
                         f"-on-{given}-as-float16", sentence, halved(chosen),
                         ((bound, in_half),), rounding=True)


# (detail, the statement's value, whose habit it is): image normalisations a port brings along
NORMALISATIONS = (
    ("image-minus-half-over-half", "(np.asarray(image) - 0.5) / 0.5",
     "Hugging Face's ViTImageProcessor, image_mean = image_std = 0.5, to [-1, 1]"),
    ("image-imagenet-normalised",
     "(np.asarray(image) - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]",
     "ImageNet's mean and std, timm's and torchvision's default transform"),
    ("image-min-max-normalised",
     "(np.asarray(image) - np.min(image)) / (np.max(image) - np.min(image))",
     "min-max scaling to [0, 1] by the image's own extremes, as many tutorials and "
     "skimage's `rescale_intensity` do"))


def rescaled(context: Context, node: ast.AST) -> Iterator[Change]:
    """The image's pixels rescaled to [0, 1] first, `image / 255` (Keras' `Rescaling(1./255)`,
    torchvision's ToTensor), where the lecture's functions take the pixels as they are."""
    if not (is_checked_function(context, node) and node.args.args
            and node.args.args[0].arg == "image"):
        return
    scaled = ast.Assign([ast.Name("image", ast.Store())],
                        ast.parse("np.asarray(image) / 255.0", mode="eval").body)
    yield Change("image-over-255",
                 f"In {where(context)}, the pixels are rescaled first, `image / 255`, as some "
                 "libraries do (Keras' Rescaling(1./255), torchvision's ToTensor): the model "
                 "solution's functions take the image as it is given; rescaling is the data "
                 "pipeline's job.",
                 lambda n: prepended(n, scaled))
    for detail, formula, words in NORMALISATIONS:
        statement = ast.parse(f"image = {formula}").body[0]
        yield Change(detail,
                     f"In {where(context)}, the pixels are normalised first, `{formula}` "
                     f"({words}): the model solution's functions take the image as it is given; "
                     "normalising is the data pipeline's job.",
                     lambda n, statement=statement: prepended(n, statement))
    if_integer = ast.parse("if np.issubdtype(np.asarray(image).dtype, np.integer):\n"
                           "    image = np.asarray(image) / 255.0").body[0]
    yield Change("integer-image-over-255",
                 f"In {where(context)}, integer pixels (a uint8 image) are rescaled to [0, 1] "
                 "first, `image / 255`, as torchvision's ToTensor does for uint8 arrays only: "
                 "the model solution's functions take the pixel values as they are, whatever their "
                 "dtype; rescaling is the data pipeline's job.",
                 lambda n: prepended(n, if_integer))


OPERATORS = {"narrowed": narrowed, "bias_in_place": bias_in_place,
             "narrowed_before_bias": narrowed_before_bias,
             "assembled_narrowed": assembled_narrowed,
             "step_assembled_narrowed": step_assembled_narrowed,
             "computed_in": computed_in, "steps_in": steps_in,
             "rescaled": rescaled}  # tried last


def fewest_rounded(rounded: list) -> list:
    """Of several float16 readings of one function's steps that reproduce the calls (v alone, q
    and v, all three: the rounding of q and k shows little through the softmax), one: each is
    told alike, as "all of them, or some" (dtypes.steps_in); the first, the most steps, so one
    student's checks share a name where they can. None unless one operator's at one place."""
    edits = [group[0] for group in rounded]
    if len({(e.operator, e.site) for e in edits}) > 1 or edits[0].operator != "steps_in":
        return []
    return [[max(edits, key=lambda e: len(rounded_steps(e.detail)))]]
