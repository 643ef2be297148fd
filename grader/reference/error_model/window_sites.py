"""Where a windowed step stands in the reference's code: the `sliding_window_view` call that
takes a name's windows (`window_call`, its shape and its image), the read that keeps every
`s`-th of them (`a[::s, ::s]`: `strided_axes`, `kept_every_stride`, `strided_windows`), and the
return statement of a function built on them (`windows_returned`, `returned_through`). Finders
only: the operators that edit these places are in windows.py and the modules that import these.
"""
from __future__ import annotations

import ast
import copy

from .change import Context, code
from .tree import PREFIX


def strided_axes(node: ast.AST) -> list[int]:
    """The positions of `a[::s, ::s]`'s strided axes (`::s`, no bounds), for a name `a`."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and isinstance(node.slice, ast.Tuple)):
        return []
    return [i for i, part in enumerate(node.slice.elts) if isinstance(part, ast.Slice)
            and part.step is not None and part.lower is None and part.upper is None]


def window_shape(function: ast.AST, name: str) -> ast.AST | None:
    """The window shape of `name = sliding_window_view(x, shape, ...)` in `function`, else None."""
    call = window_call(function, name)
    return None if call is None else call.args[1]


def windowed_image(function: ast.AST, name: str) -> ast.AST | None:
    """The image of `name = sliding_window_view(image, ...)` in `function`, else None."""
    shape = window_shape(function, name)
    return None if shape is None else next(
        node.value.args[0] for node in ast.walk(function) if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call) and shape in node.value.args)


def grid_read(function: ast.AST, node: ast.AST) -> ast.AST | None:
    """The image whose windows `node` reads on a (rows, columns) grid, `windows[::s, ::s]` of
    `windows = sliding_window_view(image, ...)` in `function`, else None: where the operators on
    a convolution's grid of output positions apply."""
    return windowed_image(function, node.value.id) if strided_axes(node) == [0, 1] else None


def window_call(function: ast.AST, name: str) -> ast.Call | None:
    """The call of `name = sliding_window_view(x, shape, ...)` in `function`, else None."""
    return next((node.value for node in ast.walk(function) if isinstance(node, ast.Assign)
                 and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                 and node.targets[0].id == name and isinstance(node.value, ast.Call)
                 and len(node.value.args) >= 2
                 and code(node.value.func).endswith("sliding_window_view")), None)


def kept_every_stride(node: ast.AST) -> bool:
    """Whether `node` is `a[::s, ::s]`: a name's windows kept every `s`-th on their first two
    axes, no bounds."""
    return strided_axes(node) == [0, 1]


def strided_window_call(context: Context, node: ast.AST) -> ast.Call | None:
    """The `sliding_window_view` call whose windows `node` keeps every `s`-th (`a[::s, ::s]`,
    `kept_every_stride`, the cheap test first: no walk of the function otherwise), else None."""
    return window_call(context.instance.node, node.value.id) if kept_every_stride(node) else None


def strided_windows(function: ast.AST) -> ast.Subscript | None:
    """`a[::s, ::s]` in `function` (`kept_every_stride`); else None."""
    return next((sub for sub in ast.walk(function) if kept_every_stride(sub)), None)


def windows_returned(context: Context, node: ast.AST) -> tuple | None:
    """(the windows' name, the image, the window shape, the stride) of a function that returns
    `sliding_window_view(image, shape)[::s, ::s]`'s product, at its return statement; else
    None."""
    function = context.instance.node
    if not (isinstance(node, ast.Return) and node.value is not None):
        return None
    strided = strided_windows(function)
    if strided is None:
        return None
    image = windowed_image(function, strided.value.id)
    window = window_shape(function, strided.value.id)
    if image is None or window is None:
        return None
    return strided.value.id, image, window, strided.slice.elts[0].step


def returned_through(found: tuple, function) -> tuple:
    """(the return statement rewritten to pass its value, with the image, the window shape and
    the stride `windows_returned` found, through `function`; the name it is bound as)."""
    _, image, window, stride = found
    bound = f"{PREFIX}{function.__name__}"
    return (lambda n: ast.Return(ast.Call(ast.Name(bound, ast.Load()), [
        n.value, copy.deepcopy(image), copy.deepcopy(window), copy.deepcopy(stride)], [])),
        ((bound, function),))
