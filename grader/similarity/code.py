"""A submission's functions as fingerprints: {function name: sorted list of 48-bit ints}.

Student code is hostile: it is read as text and parsed with `ast` (never imported, never run),
sizes are bounded (MAX_SOURCE_BYTES per file, MAX_TOKENS per function), and code that does not
parse is left out. A notebook's code cells (magics and shell lines blanked) are parsed one by
one; a later definition replaces an earlier one, as running the cells would. How a function
becomes tokens and winnowed blake2b hashes (the same in every process, shard and run):
docs/architecture.md, "Similar code".
"""
from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

MAX_SOURCE_BYTES = 1 << 20   # a larger file is not fingerprinted (a submission is a few KB)
MAX_TOKENS = 20_000          # per function: more is cut
K = 5                        # tokens per fragment
WINDOW = 4                   # winnowing window: any match of K + WINDOW - 1 tokens is seen
MAX_PRINTS = 1000            # kept per function (the smallest: a consistent sample), bounding
                             # a record; a real function has a few dozen


def submission_code(path: str | Path) -> list[str] | None:
    """The code of a .py file (one chunk) or of a notebook's code cells (a chunk per cell);
    None when it is too large, unreadable, or neither."""
    path = Path(path)
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_SOURCE_BYTES:
            return None
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return code_chunks(text, path.suffix)


def code_chunks(text: str, suffix: str) -> list[str] | None:
    """A .py file's text as one chunk, a notebook's code cells a chunk each (by `suffix`, as
    given); None for any other file."""
    if suffix == ".ipynb":
        return notebook_cells(text)
    return [text] if suffix == ".py" else None


def notebook_cells(text: str) -> list[str] | None:
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than the stack
        return None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        return None
    out = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            source = "".join(map(str, source)) if isinstance(source, list) else str(source)
            out.append("\n".join("" if line.lstrip().startswith(("%", "!")) else line
                                 for line in source.splitlines()))
    return out


def fingerprints(chunks: list[str], names=None) -> dict[str, list[int]]:
    """{function: fingerprints} of the top-level functions in `chunks` (only those in `names`,
    when given)."""
    functions: dict[str, ast.AST] = {}
    for chunk in chunks:
        try:
            tree = ast.parse(chunk)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    names is None or node.name in names):
                functions[node.name] = node
    out = {}
    for name, node in functions.items():
        try:
            out[name] = winnowed(tokens(node))
        except RecursionError:
            continue
    return out


def submission_fingerprints(path: str | Path, names=None) -> dict[str, list[int]] | None:
    """None when the file could not be read as code at all."""
    chunks = submission_code(path)
    return None if chunks is None else fingerprints(chunks, names)


def tokens(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The function's body as tokens (its name and docstring left out), in one pass: a name is
    made `V` at the end if the function binds it anywhere."""
    args = function.args
    own = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                           *(x for x in (args.vararg, args.kwarg) if x is not None))}
    body = function.body
    if ast.get_docstring(function, clean=False) is not None:
        body = body[1:]  # the docstring: often the template's own
    out = ["def"] + ["V"] * len(own)
    names = []  # indices in `out` of names, settled once every binding is known
    stack = list(reversed(body))
    while stack and len(out) < MAX_TOKENS:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            names.append(len(out))
            out.append(node.id)
            if type(node.ctx) is not ast.Load:  # Store, Del: bound here
                own.add(node.id)
            continue
        if kind is ast.Attribute:
            out.append("." + node.attr)
        elif kind is ast.Constant:
            value = node.value
            out.append("S" if isinstance(value, str | bytes) else repr(value)[:24])
            continue
        elif kind is ast.keyword:
            out.append(f"{node.arg}=")
        elif kind is ast.arg:
            own.add(node.arg)
            out.append("V")
        elif isinstance(node, ast.expr_context):
            continue
        else:
            out.append(kind.__name__)
            if kind is ast.ExceptHandler and node.name:
                own.add(node.name)
            elif kind is ast.alias:
                own.add((node.asname or node.name).split(".")[0])
            elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                own.add(node.name)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    for i in names:
        if out[i] in own:
            out[i] = "V"
    return out[:MAX_TOKENS]


def winnowed(words: list[str]) -> list[int]:
    """The winnowed hashes of every K consecutive tokens, sorted and unique."""
    if not words:
        return []
    grams = [_hash("\x1f".join(words[i:i + K])) for i in range(max(1, len(words) - K + 1))]
    if len(grams) <= WINDOW:
        return sorted(set(grams))[:MAX_PRINTS]
    chosen = {min(grams[start:start + WINDOW]) for start in range(len(grams) - WINDOW + 1)}
    return sorted(chosen)[:MAX_PRINTS]


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8", "surrogatepass"),
                                          digest_size=6).digest(), "big")
