"""Input expressions: how a spec writes arguments, and the values (and code) they make.

A YAML scalar or list is itself. A mapping with one *builder* key (BUILDERS; docs/spec.md's
table says what each makes) builds a value: `{random: [8, 8, 3], seed: 1}`, `{vit_params:
{image_size: 8, patch_size: 2, dim: 8, depth: 1, heads: 2}, seed: 3}`, `{checkpoint_params:
checkpoints/tiny-vit}` (grader.checks.checkpoint_inputs), ... Any other mapping is a dict whose
values are expressions. `source()` gives code a student can paste to rebuild the value
(`with_imports()` adds what it needs beyond numpy).
"""
from __future__ import annotations

import re

import numpy as np

from grader.params import ViTSizes, init_params

from . import checkpoint_inputs
from .block_params import ATTENTION_KEYS, BLOCK_KEYS

BUILDERS = ("array", "arange", "random", "zeros", "ones", "tuple", "vit_params", "block_params",
            "attention_params", "checkpoint_params", "checkpoint_sample")


class InputError(ValueError):
    """An input expression that cannot be built (a spec mistake)."""


def builder_of(expr) -> str | None:
    if isinstance(expr, dict):
        keys = [k for k in expr if k in BUILDERS]
        if len(keys) == 1:
            return keys[0]
    return None


def evaluate(expr, folder=None):
    """The value an input expression stands for (fresh arrays every call). `folder`: the spec's
    own folder, where a relative checkpoint folder is (None: the exercises folder found from
    here, else the installed one: for an instructor's tools, never for grading)."""
    kind = builder_of(expr)
    if kind is None:
        if isinstance(expr, list):
            return [evaluate(e, folder) for e in expr]
        if isinstance(expr, dict):
            return {k: evaluate(v, folder) for k, v in expr.items()}
        return expr
    try:
        if kind in ("checkpoint_params", "checkpoint_sample"):
            return _BUILD[kind](expr, folder)
        return _BUILD[kind](expr)
    except (TypeError, ValueError, KeyError) as exc:
        raise InputError(f"cannot build {{{kind}: ...}}: {exc}") from None


def _dtype(expr) -> np.dtype:
    return np.dtype(expr.get("dtype", "float64"))


def _shape(value) -> tuple[int, ...]:
    return (value,) if isinstance(value, int) else tuple(value)


def _random(expr):
    rng = np.random.default_rng(expr.get("seed", 0))
    shape = _shape(expr["random"])
    uniform = expr.get("dist") == "uniform"
    values = rng.uniform(-1, 1, shape) if uniform else rng.standard_normal(shape)
    return (values * expr.get("scale", 1.0) + expr.get("shift", 0.0)).astype(_dtype(expr))


def _config(expr, key):
    options = dict(expr[key] or {})
    options.setdefault("dtype", expr.get("dtype", "float64"))
    if key != "vit_params":  # one block: only its widths matter
        options.setdefault("depth", 1)
    return ViTSizes(**options)


def _block_params(expr, key="block_params", keys=BLOCK_KEYS):
    """One block's parameters (only `keys`): `{block_params: ...}`, `{attention_params: ...}`."""
    block = init_params(_config(expr, key), expr.get("seed", 0))["blocks"][0]
    return {k: block[k] for k in keys}


_BUILD = {
    "array": lambda e: np.array(e["array"], dtype=_dtype(e)),
    "arange": lambda e: (np.arange(np.prod(_shape(e["arange"])), dtype=np.float64)
                         + e.get("start", 0)).reshape(_shape(e["arange"])).astype(_dtype(e)),
    "random": _random,
    "zeros": lambda e: np.zeros(_shape(e["zeros"]), dtype=_dtype(e)),
    "ones": lambda e: np.ones(_shape(e["ones"]), dtype=_dtype(e)),
    "tuple": lambda e: tuple(evaluate(x) for x in e["tuple"]),
    "vit_params": lambda e: init_params(_config(e, "vit_params"), e.get("seed", 0)),
    "block_params": _block_params,
    "attention_params": lambda e: _block_params(e, "attention_params", ATTENTION_KEYS),
    "checkpoint_params": checkpoint_inputs.checkpoint_params,
    "checkpoint_sample": checkpoint_inputs.checkpoint_sample,
}


def source(expr) -> str:
    """Python a student can paste to rebuild the value of `expr` (assumes `import numpy as np`)."""
    kind = builder_of(expr)
    if kind is None:
        if isinstance(expr, list):
            return "[" + ", ".join(source(e) for e in expr) + "]"
        if isinstance(expr, dict):
            return "{" + ", ".join(f"{k!r}: {source(v)}" for k, v in expr.items()) + "}"
        return _numbers(repr(expr))
    if kind == "checkpoint_params":  # described, not written as code
        return f"<params of the checkpoint {expr['checkpoint_params']}>"
    if kind == "checkpoint_sample":
        part = expr.get("part", "image")
        return f"<{part} saved with the checkpoint {expr['checkpoint_sample']}>"
    dtype = expr.get("dtype", "float64")
    dtype_arg = "" if dtype == "float64" else f", dtype=np.{dtype}"
    if kind == "array":
        return f"np.array({_numbers(repr(expr['array']))}{dtype_arg or ', dtype=float'})"
    if kind == "arange":
        shape, start = _shape(expr["arange"]), expr.get("start", 0)
        n = int(np.prod(shape))
        return f"np.arange({start}, {start + n}, dtype=float).reshape({shape!r}){_astype(dtype)}"
    if kind == "random":
        shape, seed, scale = _shape(expr["random"]), expr.get("seed", 0), expr.get("scale", 1.0)
        draw = (f"uniform(-1, 1, {shape!r})" if expr.get("dist") == "uniform"
                else f"standard_normal({shape!r})")
        scaled = f" * {scale}" if scale != 1.0 else ""
        scaled += f" + {expr['shift']}" if expr.get("shift", 0.0) != 0.0 else ""
        return f"(np.random.default_rng({seed}).{draw}{scaled}){_astype(dtype)}"
    if kind in ("zeros", "ones"):
        return f"np.{kind}({_shape(expr[kind])!r}{dtype_arg})"
    if kind == "tuple":
        comma = "," if len(expr["tuple"]) == 1 else ""
        return "(" + ", ".join(source(x) for x in expr["tuple"]) + comma + ")"
    return f"evaluate({expr!r})"  # a params dict: rebuilt by the grader's own builder, exactly


def _numbers(text: str) -> str:
    """A repr of numbers as Python reads it back: `inf` and `nan` as `np.inf` and `np.nan`."""
    return re.sub(r"(?<![\w.'\"])(inf|nan)\b", r"np.\1", text)


def with_imports(code: str) -> str:
    """`code` (from `source`) preceded by the imports it needs beyond `import numpy as np`."""
    return f"from grader.checks.inputs import evaluate; {code}" if "evaluate(" in code else code


ONE_LINE = 600  # a call this long is pasted from one line; longer, one argument or entry a line
AT_MOST = 6000  # longer: not shown (a failure's message is read, not a data file)
WIDTH = 96


def reproduce(code: str) -> str | None:
    """What follows "to reproduce:" for the call `code` (from `source`): on the same line when
    short, else on lines of its own indented under it, one argument or dict entry a line (a
    whole ViT's parameters written out: ~1,600 characters); None when longer than AT_MOST."""
    if len(code) > AT_MOST:
        return None
    if len(code) <= ONE_LINE:
        return f" {with_imports(code)}"
    lines = ["from grader.checks.inputs import evaluate"] if "evaluate(" in code else []
    return "".join(f"\n    {line}" for line in lines + _wrapped(code))


def _wrapped(code: str, indent: int = 4) -> list[str]:
    """`code` as lines of at most WIDTH where its brackets allow: the outermost bracket that
    closes at its end opened on the first line, each item inside on its own lines, 4 deeper."""
    split = None if indent + len(code) <= WIDTH else _bracketed(code)
    if split is None:
        return [code]
    head, items, close = split
    lines, room, shared = [head], WIDTH - indent, False
    for i, item in enumerate(items):
        inner = _wrapped(item, indent + 4)
        inner[-1] += "," if i < len(items) - 1 else ""
        if shared and len(inner) == 1 and len(lines[-1]) + len(inner[0]) < room:
            lines[-1] += f" {inner[0]}"  # short items share a line
        else:
            lines += [f"    {line}" for line in inner]
        shared = len(inner) == 1
    return [*lines, close]


def _bracketed(code: str) -> tuple[str, list[str], str] | None:
    """(code up to the bracket its last character closes, the items inside split at their
    top-level commas, the closing bracket); None when `code` does not end with a bracket."""
    opened, depth, quote, commas = None, 0, None, []
    for i, char in enumerate(code):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
            opened = i if depth == 1 and opened is None else opened
        elif char in ")]}":
            depth -= 1
            if depth == 0 and i < len(code) - 1:
                opened, commas = None, []  # closed before the end: `(a * b)[0]`
        elif char == "," and depth == 1:
            commas.append(i)
    if opened is None or depth or code[-1] not in ")]}":
        return None
    cuts = [opened, *commas, len(code) - 1]
    items = [code[a + 1:b].strip() for a, b in zip(cuts, cuts[1:], strict=False)]
    return code[:opened + 1], [item for item in items if item], code[-1]


def _astype(dtype: str) -> str:
    return "" if dtype == "float64" else f".astype(np.{dtype})"
