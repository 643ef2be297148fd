"""A reference function as a tree of rewritable instances, and compiling it with edits.

`Instance` is one function of the reference as called from one place: the checked function at
the root, and below it every helper of the reference it calls (`linear`, `softmax`, `mlp`, ...),
one instance per call site, so that an edit of `linear`'s bias in `mlp`'s second layer leaves
every other `linear` alone. Each instance keeps its own parsed source (`ast`), with each call of
a helper renamed to that call's own instance. `Site` is one node of one instance where an
operator applies; `compile_with(root, edits)` builds the root function with every edit applied
(one, or a pair) and every other instance as written.
"""
from __future__ import annotations

import ast
import copy
import inspect
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

MAX_DEPTH = 5
PREFIX = "__em_"  # names the error model binds in a rewritten function's globals
# helpers never descended into: validation (their refusals are the student's own checks) and
# numerics below the lecture's steps
SKIPPED = frozenset({"check_heads", "check_positions", "check_tiling", "check_patch_size",
                     "_check_conv", "as_int", "as_hwc", "erf", "erfc"})
PACKAGE = "grader.reference"


@dataclass
class Instance:
    path: str                   # "encoder_block/mlp/linear.2": helper names from the root
    function: Callable          # the original function
    node: ast.FunctionDef       # its source, helper calls renamed to their instances
    call: str                   # how its caller calls it: "linear(h, p['W2'], p['b2'])"
    children: dict[str, Instance] = field(default_factory=dict)  # bound name -> instance
    compiled: Callable | None = None
    rewritten: dict = field(default_factory=dict)  # (edit names) -> compiled, at the root
    sizes: dict | None = None   # id(node) -> its subtree's size, for rebuilding (`_sizes`)
    values: dict = field(default_factory=dict)  # (edit names, inputs) -> run, at the root

    @property
    def name(self) -> str:
        return self.function.__name__

    def walk(self) -> Iterator[Instance]:
        """This instance, then its helpers' (depth first, in call order)."""
        yield self
        for child in self.children.values():
            yield from child.walk()


def nodes(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST | None, str | None, int | None]]:
    """(node, parent, field, index in the field's list or None) in one fixed pre-order."""
    stack = [(tree, None, None, None)]
    while stack:
        node, parent, name, index = stack.pop()
        yield node, parent, name, index
        children = []
        for key, value in ast.iter_fields(node):
            if isinstance(value, list):
                children += [(v, node, key, i) for i, v in enumerate(value)
                             if isinstance(v, ast.AST)]
            elif isinstance(value, ast.AST):
                children.append((value, node, key, None))
        stack += reversed(children)


def source(function: Callable) -> ast.FunctionDef | None:
    try:
        text = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return None
    tree = ast.parse(text)
    node = tree.body[0] if tree.body else None
    return node if isinstance(node, ast.FunctionDef) else None


def own_function(value, root_module: str) -> Callable | None:
    """`value` when it is a Python function of the reference's package or of the checked
    function's own module (a course's reference), the code the model may read; else None."""
    module = getattr(value, "__module__", "") or ""
    own = module.startswith(PACKAGE) or module == root_module
    return value if own and isinstance(value, types.FunctionType) else None


def _helper(function: Callable, name: str, root_module: str,
            opaque: frozenset) -> Callable | None:
    if name in SKIPPED or name in opaque:
        return None
    return own_function(function.__globals__.get(name), root_module)


def build(function: Callable, path: str | None = None, call: str = "",
          depth: int = 0, root_module: str | None = None,
          opaque: frozenset = frozenset()) -> Instance | None:
    """The instance tree of `function` (None when its source cannot be read); the helpers
    named in `opaque` are called as they are, never rewritten."""
    node = source(function)
    if node is None:
        return None
    root_module = root_module or function.__module__
    instance = Instance(path or function.__name__, function, node, call or function.__name__)
    if depth >= MAX_DEPTH:
        return instance
    seen: dict[str, int] = {}
    for sub, _, _, _ in list(nodes(node)):
        if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)):
            continue
        helper = _helper(function, sub.func.id, root_module, opaque)
        if helper is None or helper is function:
            continue
        seen[sub.func.id] = seen.get(sub.func.id, 0) + 1
        label = sub.func.id if seen[sub.func.id] == 1 else f"{sub.func.id}.{seen[sub.func.id]}"
        child = build(helper, f"{instance.path}/{label}", ast.unparse(sub), depth + 1,
                      root_module, opaque)
        if child is None:
            continue
        bound = f"{PREFIX}{label.replace('.', '_')}"
        instance.children[bound] = child
        sub.func = ast.copy_location(ast.Name(bound, ast.Load()), sub.func)
    ast.fix_missing_locations(node)
    return instance


@dataclass(frozen=True)
class Site:
    """One place an operator applies: the node at `index` (pre-order) of instance `path`."""
    path: str
    index: int


@dataclass(frozen=True)
class Edit:
    """One rewrite: at `site`, the node replaced by `replace(node)` (a new node)."""
    operator: str
    site: Site
    detail: str                 # what changed, short and stable: "max.axis=0", "b", "eps=1e-05"
    sentence: str               # for the student
    replace: Callable[[ast.AST], ast.AST]
    names: tuple = ()           # (name, value) the new node needs in the function's globals
    also: tuple = ()            # the same edit at these sites too: every call of one helper
    holds: Callable | None = None  # a further condition for its sentence (change.Change)
    shared: str | None = None   # the sentence at each call of its helper (change.Change)
    rounding: bool = False      # compared as a narrower float's values (change.Change)

    @property
    def name(self) -> str:
        path = f"{self.site.path}*" if self.also else self.site.path  # *: every call of it
        return f"op:{self.operator}:{path}:{self.detail}"

    @property
    def sites(self) -> tuple:
        return (self.site, *self.also)


def span(root: Instance, site: Site) -> range:
    """The pre-order indices (`nodes`' order) of the site's node and of every node below it, in
    its instance of `root`'s tree: which other sites lie inside the one edited."""
    instance = next(i for i in root.walk() if i.path == site.path)
    node = next(n for i, (n, _, _, _) in enumerate(nodes(instance.node)) if i == site.index)
    return range(site.index, site.index + sum(1 for _ in nodes(node)))


def _edited(instance: Instance, edits: list[Edit]) -> ast.FunctionDef:
    """The instance's function with `edits` applied: a new node wherever an edit or one below
    it lies, every other subtree shared with the original (compiling does not change it)."""
    wanted: dict[int, list[Edit]] = {}  # two edits at one node (two of the function's own
    for e in edits:                      # rewrites, a test dropped and a parameter read anew)
        for s in e.sites:                # are applied one after the other, in the group's order
            if s.path == instance.path:
                wanted.setdefault(s.index, []).append(e)
    if instance.sizes is None:
        instance.sizes = _sizes(instance.node)
    node, _ = _rebuild(instance.node, 0, wanted, instance.sizes)
    return node


def _sizes(tree: ast.AST) -> dict[int, int]:
    """id(node) -> the number of nodes in its subtree, `nodes`' way, for every node of `tree`:
    a rebuild steps over a subtree no edit lies in (the tree is never changed in place)."""
    sizes: dict[int, int] = {}

    def count(node: ast.AST) -> int:
        size = 1 + sum(count(child) for child in ast.iter_child_nodes(node))
        sizes[id(node)] = size
        return size

    count(tree)
    return sizes


def _rebuild(node: ast.AST, index: int, wanted: dict, sizes: dict) -> tuple[ast.AST, int]:
    """(`node` with the edits at or below it applied, the deepest first; the pre-order index
    after its subtree), indices counted as `nodes` counts them."""
    end = index + sizes[id(node)]
    if not any(index <= at < end for at in wanted):
        return node, end  # no edit below: shared as it is
    after, changes = index + 1, {}
    for key, value in ast.iter_fields(node):
        if isinstance(value, list):
            items = []
            for item in value:
                if isinstance(item, ast.AST):
                    item, after = _rebuild(item, after, wanted, sizes)
                items.append(item)
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changes[key] = items
        elif isinstance(value, ast.AST):
            new, after = _rebuild(value, after, wanted, sizes)
            if new is not value:
                changes[key] = new
    if changes:
        node = copy.copy(node)
        for key, value in changes.items():
            setattr(node, key, value)
    for edit in wanted.get(index, ()):
        new = edit.replace(node)
        if not isinstance(new, ast.AST):  # an edit below took away what this one rewrites
            raise ValueError(f"{edit.name} does not apply after the other edit")
        if id(new) in sizes:  # a node of the tree itself (a term dropped: its operand), shared:
            new = copy.copy(new)  # the copy takes the location, the kept tree keeps its own
        node = ast.fix_missing_locations(ast.copy_location(new, node))  # its new nodes only:
        # every other one keeps the location it was parsed with
    return node, after


def compile_with(instance: Instance, edits: list[Edit]) -> Callable:
    """`instance`'s function with `edits` applied wherever they lie below it."""
    touched = [e for e in edits if any(s.path == instance.path
                                       or s.path.startswith(instance.path + "/")
                                       for s in e.sites)]
    if not touched and instance.compiled is not None:
        return instance.compiled
    own = [e for e in touched if any(s.path == instance.path for s in e.sites)]
    node = _edited(instance, own) if own else instance.node
    namespace = dict(instance.function.__globals__)
    for bound, child in instance.children.items():
        namespace[bound] = compile_with(child, touched)
    for edit in own:
        namespace.update(edit.names)
    code = compile(ast.Module([node], []), f"<error model: {instance.path}>", "exec")
    exec(code, namespace)  # noqa: S102 - the instructor's reference, rewritten
    function = namespace[node.name]
    if not touched:
        instance.compiled = function
    return function
