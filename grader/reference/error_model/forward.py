"""Operators on what the forward pass hands its blocks, after Hugging Face's ViT
(`ViTConfig` holds `num_hidden_layers`, `num_attention_heads` and, in `ViTSelfAttention`,
`attention_head_size = hidden_size // num_attention_heads`: three counts a port mixes up):

- a step's head count given another count: the number of steps the loop around it runs (the
  depth, `len(params["blocks"])`, `num_hidden_layers` for `num_attention_heads`), or the width
  of one head, `x.shape[-1] // heads` (`attention_head_size` passed where the number of heads
  belongs); only where the checked function itself passes `heads` on to a student-API step;
- a step after a loop given the parameters of the loop's last element (the loop variable left
  over after `for block in params["blocks"]`, read as HF's per-layer `layernorm_after` where the
  model's final `layernorm` belongs): `layer_norm(x, params["ln_g"], params["ln_b"])` as
  `layer_norm(x, block["ln2_g"], block["ln2_b"])`, the keys each taken from a call of the same
  function inside the step the loop runs (its own LayerNorms), one change per such call.
- the table of positions added to the tokens with its patch rows laid on the grid column by
  column (MAE's `get_2d_sincos_pos_embed`: `grid = np.meshgrid(grid_w, grid_h)  # here w goes
  first`, a convention carried over to a learned table): patch (r, c) of an R-row grid gets
  row 1 + c * R + r, where the patches are numbered row by row; only in a checked function
  that takes the image and passes the patch size `params['P']` with it (embed_image).
- the learned table of positions replaced by a fixed 2-D sine-cosine one computed from the patch
  grid (MAE's `get_2d_sincos_pos_embed(d, grid_size, cls_token=True)`, lucidrains'
  `posemb_sincos_2d` in simple_vit.py): d // 4 frequencies 1 / 10000 ** (i / (d // 4)) (MAE)
  or 1 / 10000 ** (i / (d // 4 - 1)) (simple_vit), the sines and cosines of each patch's
  column, then of its row (both lay the column first), zero columns after them where d is not a
  multiple of 4, and a zero row for [CLS] (MAE's `cls_token=True`; simple_vit has no [CLS]: a
  port that keeps one gives it no position); same checked function as above. Also with the sources'
  own refusal of a width that is not a multiple of 4 (an AssertionError), said only where a
  call raised it and another returned a wrong value. (MoCo v3's
  `build_2d_sincos_position_embedding` lays the row first: another table, not offered.)

Each is an operator as in operators.py (`f(context, node) -> iterator of Change`).
"""
from __future__ import annotations

import ast
import copy
import inspect
from collections.abc import Iterator

import numpy as np

from .change import Change, Context, called_function, callee, code, key_of, where
from .evidence import agree
from .tree import PREFIX, source

COUNT = "heads"  # the count a student-API step takes that HF's config names three ways
IMAGE, SIZE = "image", "P"  # the student API's image argument and its patch size's key


def _loop_around(function: ast.FunctionDef, node: ast.AST) -> ast.For | None:
    """The top-level `for` statement of `function` whose body holds `node`, else None."""
    for statement in function.body:
        if isinstance(statement, ast.For) and any(n is node for s in statement.body
                                                   for n in ast.walk(s)):
            return statement
    return None


def heads_confused(context: Context, node: ast.AST) -> Iterator[Change]:
    """`step(x, ..., heads)` of a student-API step given, for its `heads`, the loop's length
    (the depth) or the width of one head `x.shape[-1] // heads`."""
    if not (isinstance(node, ast.Call) and "/" not in context.instance.path and node.args
            and len(node.args) > 1):
        return
    from grader.reference import REFERENCE  # the student API's own functions

    function = called_function(context, node)
    if function is None or function.__name__ not in REFERENCE:
        return
    parameters = list(inspect.signature(function).parameters)
    if COUNT not in parameters[1:len(node.args)]:
        return
    index = parameters.index(COUNT)
    argument, first = node.args[index], node.args[0]
    if key_of(argument) != COUNT and not (isinstance(argument, ast.Name)
                                          and argument.id == COUNT):
        return
    loop = _loop_around(context.instance.node, node)
    others = []
    if loop is not None:
        others.append(("depth", ast.Call(ast.Name("len", ast.Load()), [loop.iter], []),
                       f"the number of steps of the loop `for {code(loop.target)} in "
                       f"{code(loop.iter)}` (the depth, HF's `num_hidden_layers`)"))
    if isinstance(first, ast.Name):  # the step's input by name: its width is at hand
        width = ast.BinOp(ast.Subscript(ast.Attribute(first, "shape", ast.Load()),
                                        ast.UnaryOp(ast.USub(), ast.Constant(1)), ast.Load()),
                          ast.FloorDiv(), argument)
        others.append(("head-width", width, "the width of one head (`hidden_size // "
                       "num_attention_heads`, HF's `attention_head_size`)"))
    for detail, value, words in others:
        def replaced(n: ast.Call, index=index, value=value) -> ast.Call:
            new = copy.copy(n)
            new.args = [*n.args[:index], copy.deepcopy(value), *n.args[index + 1:]]
            return new

        yield Change(f"{COUNT}-as-{detail}",
                     f"In {where(context)}, `{callee(node)}` is given `{code(value)}`, {words}, "
                     f"as its number of heads: pass `{code(argument)}` itself, the number of "
                     "heads each block's attention splits the width into.", replaced)


def _own_keys(step, name: str, parameter: str, positions: list[int]) -> list[list[str]]:
    """For each call of `name` in the step's source whose arguments at `positions` all read
    `parameter[key]`: those keys (the step's own LayerNorms: ['ln1_g', 'ln1_b'], ...)."""
    tree = source(step)
    found = []
    for call in ast.walk(tree) if tree is not None else ():
        if not (isinstance(call, ast.Call) and callee(call) == name
                and len(call.args) > max(positions)):
            continue
        keys = [key_of(call.args[i]) for i in positions]
        if all(k is not None and isinstance(call.args[i].value, ast.Name)
               and call.args[i].value.id == parameter for k, i in zip(keys, positions,
                                                                       strict=True)):
            found.append(keys)
    return found


def leftover_parameters(context: Context, node: ast.AST) -> Iterator[Change]:
    """A step after a loop given the loop's last element's own parameters for that step's
    (`params['ln_g']` read as the leftover `block['ln2_g']`)."""
    if not (isinstance(node, ast.Call) and "/" not in context.instance.path):
        return
    positions = [i for i, a in enumerate(node.args) if key_of(a) is not None]
    if not positions or called_function(context, node) is None:
        return
    function = context.instance.node
    loops = [s for s in function.body if isinstance(s, ast.For) and isinstance(s.target, ast.Name)
             and s.end_lineno is not None and s.end_lineno < getattr(node, "lineno", 0)]
    if not loops:
        return
    loop = loops[-1]
    variable = loop.target.id
    if any(isinstance(node.args[i].value, ast.Name) and node.args[i].value.id == variable
           for i in positions):
        return
    seen = []
    for call in (n for s in loop.body for n in ast.walk(s) if isinstance(n, ast.Call)):
        step = called_function(context, call)
        if step is None or not any(isinstance(a, ast.Name) and a.id == variable
                                   for a in call.args):
            continue
        index = next(i for i, a in enumerate(call.args)
                     if isinstance(a, ast.Name) and a.id == variable)
        parameters = list(inspect.signature(step).parameters)
        if index >= len(parameters):
            continue
        for keys in _own_keys(step, callee(node), parameters[index], positions):
            if keys in seen:
                continue
            seen.append(keys)

            def replaced(n: ast.Call, keys=keys) -> ast.Call:
                new = copy.copy(n)
                args = list(n.args)
                for i, key in zip(positions, keys, strict=True):
                    args[i] = ast.Subscript(ast.Name(variable, ast.Load()), ast.Constant(key),
                                            ast.Load())
                new.args = args
                return new

            read = ", ".join(f"{variable}[{k!r}]" for k in keys)
            meant = ", ".join(code(node.args[i]) for i in positions)
            yield Change(f"{'-'.join(key_of(node.args[i]) for i in positions)}-as-last-"
                         f"{variable}-{'-'.join(keys)}",
                         f"In {where(context)}, `{callee(node)}` after the loop reads `{read}`: "
                         f"the loop variable `{variable}` is left over from the loop's last "
                         f"step, so these are the last {variable}'s own parameters of "
                         f"`{callee(node)}`; the model solution's step after the loop has its own, "
                         f"`{meant}`.", replaced)




def column_major(table, image, size):
    """`table` [N + 1, d] with its rows after the first laid on the (H // size, W // size) grid
    of `image` column by column: patch (r, c) given row 1 + c * rows + r (MAE's `np.meshgrid(
    grid_w, grid_h)`, "w goes first"); a table of another length as it is."""
    table = np.asarray(table)
    rows, cols = np.shape(image)[0] // size, np.shape(image)[1] // size
    if table.ndim != 2 or len(table) != rows * cols + 1:
        return table
    laid = table[1:].reshape(cols, rows, -1).transpose(1, 0, 2).reshape(rows * cols, -1)
    return np.concatenate([table[:1], laid])


def _size_key(function: ast.FunctionDef, image: str) -> ast.AST | None:
    """The patch size a call of the function passes with the image (`params['P']`), else
    None."""
    for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
        if any(isinstance(a, ast.Name) and a.id == image for a in call.args):
            sizes = [a for a in call.args if key_of(a) == SIZE]
            if sizes:
                return sizes[0]
    return None


def positions_added(context: Context, node: ast.AST) -> ast.AST | None:
    """The patch size passed with the image, where `node` adds a parameter table to the tokens,
    `x + params['pos']`, in a checked function that takes the image first (embed_image); else
    None: where a table of positions is laid on the patch grid."""
    function = context.instance.node
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and "/" not in context.instance.path and key_of(node.right) is not None
            and isinstance(node.left, ast.Name) and function.args.args
            and function.args.args[0].arg == IMAGE):
        return None
    return _size_key(function, IMAGE)


def positions_column_major(context: Context, node: ast.AST) -> Iterator[Change]:
    """A table of positions added to the tokens, its patch rows laid on the grid column by
    column: `x + params['pos']` as `x + column_major(params['pos'], image, params['P'])`."""
    size = positions_added(context, node)
    if size is None:
        return
    bound, table = f"{PREFIX}column_major", code(node.right)
    yield Change(f"{key_of(node.right)}-column-major",
                 f"In {where(context)}, the rows of `{table}` after the first are laid on the "
                 f"patch grid column by column, as MAE's `np.meshgrid(grid_w, grid_h)` (\"w goes "
                 f"first\") lays its table: patch (r, c) of a grid of R rows gets row "
                 f"1 + c * R + r. The patches are numbered row by row, so patch (r, c) of a "
                 f"grid of C columns gets row 1 + r * C + c: add `{table}` as it is.",
                 lambda n: ast.BinOp(n.left, ast.Add(), ast.Call(
                     ast.Name(bound, ast.Load()),
                     [n.right, ast.Name(IMAGE, ast.Load()), copy.deepcopy(size)], [])),
                 ((bound, column_major),))


def sincos(table, image, size, shift=0, refused=None):
    """The fixed 2-D sine-cosine positions of the (H // size, W // size) patch grid of `image`,
    one row per row of `table` [N + 1, d]: a zero row for [CLS], then for patch (r, c) the sines
    and cosines of c * w, then of r * w, with w = 1 / 10000 ** (i / (d // 4 - shift)),
    i < d // 4, zero-padded to d; a table of another length as it is. `refused` (a message):
    an AssertionError with it where d is not a multiple of 4, as the sources' own asserts."""
    table = np.asarray(table)
    if refused is not None and np.shape(table)[-1] % 4:
        raise AssertionError(*((refused,) if refused else ()))
    rows, cols = np.shape(image)[0] // size, np.shape(image)[1] // size
    if table.ndim != 2 or len(table) != rows * cols + 1:
        return table
    width = table.shape[-1]
    count = width // 4
    with np.errstate(divide="ignore", invalid="ignore"):
        omega = 1.0 / 10000.0 ** (np.arange(count) / (count - shift))
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    r, c = r.reshape(-1, 1) * omega, c.reshape(-1, 1) * omega
    grid = np.concatenate([np.sin(c), np.cos(c), np.sin(r), np.cos(r)], axis=1)
    grid = np.pad(grid, ((0, 0), (0, width - grid.shape[1])))
    return np.concatenate([np.zeros((1, width)), grid]).astype(np.result_type(table, float))


SINCOS = (("mae", 0, "frequencies 1 / 10000 ** (i / (d // 4)), as MAE's "
           "`get_2d_sincos_pos_embed`"),
          ("simple-vit", 1, "frequencies 1 / 10000 ** (i / (d // 4 - 1)), as lucidrains' "
           "simple_vit `posemb_sincos_2d`"))
# each source's refusal of a width that is not a multiple of 4: MAE's bare `assert embed_dim % 2
# == 0` (in the 2-D function, then in the 1-D one for d // 2), simple_vit's message
REFUSED = {"mae": "", "simple-vit": "feature dimension must be multiple of 4 for sincos emb"}


def _refused_and_wrong(rewritten, calls, same) -> bool:
    """Whether the student's code raised an AssertionError on a call (a width not a multiple of
    4: what the refusal says) and returned a wrong value on another (what the table says)."""
    return (any(getattr(call.got, "type", None) == "AssertionError" for call in calls)
            and any(getattr(call.got, "type", None) is None
                    and not agree(same, call.got, call.expected) for call in calls))


def positions_sincos(context: Context, node: ast.AST) -> Iterator[Change]:
    """The learned table of positions replaced by fixed 2-D sine-cosine positions of the patch
    grid, none for [CLS]: `x + params['pos']` as `x + sincos(params['pos'], image, params['P'])`
    (the table read for its shape only)."""
    size = positions_added(context, node)
    if size is None:
        return
    bound, table = f"{PREFIX}sincos", code(node.right)

    def with_table(shift: int, *refused: str):
        """`x + table` as `x + sincos(table, image, size, shift[, refused])`."""
        return lambda n: ast.BinOp(n.left, ast.Add(), ast.Call(
            ast.Name(bound, ast.Load()), [n.right, ast.Name(IMAGE, ast.Load()),
                                          copy.deepcopy(size), ast.Constant(shift),
                                          *(ast.Constant(r) for r in refused)], []))

    for detail, shift, words in SINCOS:
        grid = (f"In {where(context)}, the tokens get fixed 2-D sine-cosine positions computed "
                f"from the patch grid in place of `{table}` (d // 4 {words}: the sines and "
                "cosines of each patch's column, then of its row, and no position for [CLS])")
        yield Change(f"{key_of(node.right)}-as-sincos-{detail}",
                     f"{grid}. The lecture's positions are learned parameters, one row per "
                     f"token, [CLS] included: add `{table}` itself.",
                     with_table(shift), ((bound, sincos),))
        yield Change(f"{key_of(node.right)}-as-sincos-{detail}-asserted",
                     f"{grid}, and a width d that is not a multiple of 4 is refused (an "
                     "AssertionError, as that table's own `assert`). The lecture's positions are "
                     f"learned parameters, one row per token, [CLS] included, for any d: add "
                     f"`{table}` itself.",
                     with_table(shift, REFUSED[detail]), ((bound, sincos),),
                     holds=_refused_and_wrong)


OPERATORS = {"heads_confused": heads_confused, "leftover_parameters": leftover_parameters,
             "positions_column_major": positions_column_major,
             "positions_sincos": positions_sincos}
