"""A hint's code quotes, said as the model solution's where the student did not write them.

Hints quote code: the error model's sentences quote the reference's own code ("In `vit_forward`,
the result `linear(x[0], params['W_head'], params['b_head'])` goes through a softmax"), which a
student's code may spell otherwise (`x[0] @ params["W_head"] + params["b_head"]`); a student who
searches for the quote does not find it (blind rounds 52 and 53). So, once per hint, before any
report is written (session.py, through spelled.finished, after spelled.py's renaming), each
quoted fragment (a backticked span of code, not a bare name) is looked for in the submission's
source, compared on tokens (whitespace, comments and the quote character aside, keyword
arguments in any order). One the source holds is left alone. One it does not, said where the
sentence reads it as the student's code, is dropped where it only names again what its noun says
("the result `...` goes": "the result goes"), else, when it is the model solution's code (the
course's model solution, which the grader runs: the reference's source holds it), said as "the
model solution's `...`" (never "the lecture's": the lecture has no code), once a sentence where
the sentence quotes none of the student's code ("and `...`", "its `...`": said_once.py).
Nothing else changes: a quote already said as the model solution's or the lecture's ("at the model
solution's step `...`", "the model solution's with `...`"), one given as the right code or an
example ("instead of `...`", "`...` belongs", "as `...`", "(`...`"), or one that is no code of
the model solution's (a rewrite: what the student's code does, in the model solution's terms)
keeps its words: "the model solution's" is said only where true.

The source is read as the worker reads it (worker/serve.read_submission: a regular file of one
name, never through a link, bounded), a notebook's code cells only; one that cannot be read
leaves every hint as it is. Nothing here runs student code.
"""
from __future__ import annotations

import ast
import functools
import inspect
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from .root_line import takes_root
from .said_once import MODEL, OTHER, THEIRS, Quoted, said_once

MOST_BYTES = 64 << 20  # the file read at most (the worker's --file-mb, by default)
MOST_CODE = 1 << 20  # characters of code looked in at most: more leaves the hints as they are
SEP = "\x1f"
GAP = 400  # characters of tokens a quote's `...` may stand for
LECTURES = "the model solution's "  # the course's model solution: the lecture has no code
SAID_AS = ("lecture", "model solution")  # a clause that already says whose the code is
EFFECT = "in effect "  # before a quote of what the student's code computes, in the model
# solution's terms (an error-model rewrite's code, `H // P` for `W // P`): their own where their
# code holds it, else no quote of theirs (blind round 60's b60_01 counts `output_size ** 2`)
DEEPEST = 64  # brackets in brackets: keyword arguments are put in order up to this depth

_TOKEN = re.compile(r"""
    (?P<skip>\s+|\\\n|\#[^\n]*)
  | (?P<string>(?:[rRbBuUfF]{1,2})?(?:\'\'\'|\"\"\"|\'|\"))
  | (?P<name>[^\W\d]\w*)
  | (?P<number>\d[\w.]*|\.\d\w*)
  | (?P<op>\.\.\.|\*\*=|//=|>>=|<<=|->|:=|==|!=|<=|>=|\*\*|//|<<|>>|[-+*/%&|^@]=|\S)
""", re.VERBOSE)
_STRING_END = {q: re.compile(r"\\.|" + re.escape(q) + ("" if len(q) == 3 else r"|\n"), re.DOTALL)
               for q in ("\'\'\'", '"""', "\'", '"')}
_NAME = re.compile(r"[^\W\d]\w*")
_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
_SPAN = re.compile(r"`([^`\n]+)`")
PLACED = re.compile(r"In `([^\W\d]\w*)`")  # a sentence's place: "In `f`", f the function
# words before a quote that give it as the right code or an example, not as the student's
_NOT_THEIRS = re.compile(r"(?:\binstead of|\bin place of|\brather than|\bnot|\bwrite|\bas|\bor"
                         r"|\bsuch as|\be\.g\.|\blike|=|\()\s*$")
_CONTRAST = re.compile(r"\b(?:instead of|in place of|rather than|where)\b")  # the right code
_EXAMPLE = re.compile(r"\(\s*(?:as|e\.g\.|such as|like)\b")  # "(as a buffer made with `...`"
CAST = "the cast "  # before a quote of a cast the student's code may make (`x.astype(np.float16)`):
# said as their line where one statement of their function holds it (steps.placed)
ROOT_LINE = " (at your line that takes the square root)"  # their one statement that takes a
# root in any spelling (root_line.py, steps.placed), else dropped; as it is without a source
COLUMN_MAJOR = "the order a column-major flatten reads them"  # error_model/order.axes_swapped's
# words for a patch order (a test holds them the same): said with the student's line that
# flattens so where one does (column_major.ordered)
FLOAT_LINE = " (at your line that makes it one)"  # a count's float: the student's statements
# that hold a step whose result is always a float (true division, float(), math.pow, a square
# root), at most LINES_AT_MOST[FLOAT_LINE] of them (one per side: b64_12), else dropped
FOURTH_ROOT_LINE = " (at your line that takes the fourth root)"  # likewise, a root of a root
SHARE_LINES = {k: f" (at your line that divides by {k})" for k in (2, 3)}  # a width's share
READ_LINE = " (at your line that does so)"  # a kernel flipped or a window read backwards
# (error_model/contractions.kernel_flipped): the student's statement that reads an array at
# offsets subtracted from an anchor (`subtracted`) or flips one, else dropped


def subtracted(node: ast.AST) -> bool:
    """Whether `node` reads an array at offsets subtracted on its first two axes, `x[r - ki, c -
    kj]` or `x[r - ki][c - kj]`, neither a number taken away: a window read backwards from its
    anchor (b67_08's `image[i * stride - _i, j * stride - _j]`), not `x[i - 1, j - 1]`."""
    def less(part: ast.AST) -> bool:
        return (isinstance(part, ast.BinOp) and isinstance(part.op, ast.Sub)
                and not isinstance(part.right, ast.Constant))

    for sub in ast.walk(node):
        if not isinstance(sub, ast.Subscript):
            continue
        if isinstance(sub.slice, ast.Tuple) and len(sub.slice.elts) >= 2:
            if less(sub.slice.elts[0]) and less(sub.slice.elts[1]):
                return True
        elif less(sub.slice) and isinstance(sub.value, ast.Subscript) and less(sub.value.slice):
            return True
    return False


OWN_LINES = {ROOT_LINE: (takes_root,),
             FLOAT_LINE: ("/", "/=", "float(", "math.pow(", "sqrt(", "** 0.5"),
             FOURTH_ROOT_LINE: ("** 0.25", "** -0.25", "** .25", "** -.25", "** (1 / 4)",
                                "** (-1 / 4)", "sqrt(math.sqrt(", "sqrt(np.sqrt("),
             **{line: (f"// {k}", f"/ {k}") for k, line in SHARE_LINES.items()},
             READ_LINE: (subtracted, "[::-1, ::-1]", "flip(", "rot90(")}  # a pattern: a
# token pattern a statement holds (Code.holds), or a test of its code's tree
LINES_AT_MOST = {FLOAT_LINE: 2}  # statements quoted at most for a marker (else 1)
_EFFECT = re.compile(re.escape(EFFECT) + r"(`([^`\n]+)`)(, )?")
_APPOSITIVE = re.compile(r"\b([Tt]he)((?: [a-z]+(?:'s)?){1,3}) $")  # "the linear map's output"
_NOT_NOUNS = frozenset({"of", "is", "are", "as", "to", "by", "with", "in", "at", "from", "for",
                        "and", "or", "not", "on", "into", "than", "be", "was", "its", "each"})


def tokens(text: str) -> list[str]:
    """`text` as tokens: names, numbers, operators, and strings with their quotes made one
    (a string left open ends at its line's end, or the text's for a triple-quoted one: each
    character is read once, whatever the text)."""
    out, at = [], 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None:  # nothing: not even one character (cannot happen: \S or \s)
            break
        at = match.end()
        if match.lastgroup == "string":
            quote = match.group().lstrip("rRbBuUfF")
            start, end = at, len(text)
            for closing in _STRING_END[quote].finditer(text, at):
                if not closing.group().startswith("\\"):
                    end = closing.start()
                    at = closing.end()
                    break
            else:
                at = end
            out.append("'" + text[start:end] + "'")
        elif match.lastgroup != "skip":
            out.append(match.group())
    return out


def canonical(toks: list[str]) -> list[str]:
    """`toks` with each bracket's keyword arguments (`name=value` at its top level) in name order,
    so that `np.mean(x, keepdims=True, axis=1)` is `np.mean(x, axis=1, keepdims=True)`. A bracket
    left open (a quote cut short) is left as it is; code nested deeper than DEEPEST brackets
    (no code a person writes) is left as it is whole."""
    stack: list[tuple[str | None, list[str]]] = [(None, [])]
    for token in toks:
        if token in _CLOSE:
            if len(stack) > DEEPEST:
                return toks
            stack.append((token, []))
        elif len(stack) > 1 and token == _CLOSE[stack[-1][0]]:
            opener, inner = stack.pop()
            stack[-1][1].extend([opener, *(_sorted_keywords(inner) if opener == "(" else inner),
                                 token])
        else:
            stack[-1][1].append(token)
    while len(stack) > 1:
        opener, inner = stack.pop()
        stack[-1][1].extend([opener, *inner])
    return stack[0][1]


_CLOSE = {"(": ")", "[": "]", "{": "}"}


def _sorted_keywords(inner: list[str]) -> list[str]:
    parts, depth, part = [], 0, []
    for token in inner:
        depth += token in _CLOSE
        depth -= token in _CLOSE.values()
        if token == "," and depth == 0:
            parts.append(part)
            part = []
        else:
            part.append(token)
    parts.append(part)
    keyword = [len(p) > 1 and p[1] == "=" and _DOTTED.fullmatch(p[0]) is not None
               for p in parts]
    out, run = [], []
    for part, is_keyword in zip(parts, keyword, strict=True):
        if is_keyword:
            run.append(part)
            continue
        out += sorted(run, key=lambda p: p[0])
        run = []
        out.append(part)
    out += sorted(run, key=lambda p: p[0])
    return [t for i, p in enumerate(out) for t in ([","] if i else []) + p]


class Code:
    """Code as one canonical token string, to look quotes up in (each built once)."""

    def __init__(self, text: str):
        self.joined = SEP + SEP.join(canonical(tokens(text))) + SEP

    def holds(self, quote: str) -> bool:
        """Whether the code holds `quote`: each piece between its `...`s, in order; a last
        piece cut short (`p, h...`) may end inside a name."""
        pieces = [canonical(tokens(piece)) for piece in re.split(r"\.\.\.", quote)]
        cut = quote.rstrip().endswith("...")
        at = 0
        for number, piece in enumerate(pieces):
            if not piece:
                continue
            last = number == len(pieces) - 2 and cut and not pieces[-1]
            text = SEP + SEP.join(piece) + ("" if last else SEP)
            found = self.joined.find(text, at)
            if found < 0 or (at and found - at > GAP):
                return False
            at = found + len(text) - 1
        return True


def cut(text: str, most: int) -> str:
    """`text` cut to at most `most` characters at a token boundary: after its last comma (and
    the space after it) or closing bracket outside a string, never inside a name (blind round
    55: "`..., p, h...`" for `heads`); else where a name ends."""
    end, quote = 0, None
    for at, char in enumerate(text[:most]):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            end = at + 1 + (text[at + 1:at + 2] == " " and at + 2 <= most)
        elif char in ")]}":
            end = at + 1
    if not end:  # no comma nor bracket: the last place between a name's end and what follows
        end = next((at for at in range(most, 0, -1)
                    if not (text[at - 1].isidentifier() or text[at - 1].isdigit())
                    or not (text[at].isidentifier() or text[at].isdigit())), most)
    return text[:end]


def is_fragment(quote: str) -> bool:
    """Whether a backticked span is code (`x + pos`, `W // P`), not a bare name (`x`,
    `np.var`), a number or an operator alone."""
    toks = tokens(quote)
    return (len(toks) > 1 and _DOTTED.fullmatch(quote.strip()) is None
            and any(_DOTTED.fullmatch(t) is None for t in toks))


class Source:
    """A submission's code: whole, and each function it defines (its last definition, as running
    the code leaves it), each made a Code on first use. `api`: the student API's names, which
    have checks of their own: a quote found in one the function calls is not the function's."""

    def __init__(self, chunks: list[str], api: frozenset = frozenset()):
        self.chunks = chunks
        self.api = api
        self._whole: Code | None = None
        self._functions: dict[str, str] | None = None
        self._made: dict[str, Code] = {}
        self._definitions: list[tuple[str, ast.FunctionDef]] | None = None

    def definitions(self) -> list[tuple[str, ast.FunctionDef]]:
        """`definitions(self.chunks)`, the chunks parsed once for every hint of the submission
        (each pass of report/spelled.py reads them): shared nodes, so a caller that rewrites one
        copies it first."""
        if self._definitions is None:
            self._definitions = list(definitions(self.chunks))
        return self._definitions

    def holds(self, quote: str, function: str | None = None) -> bool:
        """Whether `function`'s code, with the submission's own helpers it calls (not the
        student API's), holds `quote` (the whole source's, when it is not found)."""
        if function is not None and self.function_text(function) is not None:
            if function not in self._made:
                self._made[function] = Code("\n".join(self._functions[name]
                                                      for name in self.called(function)))
            return self._made[function].holds(quote)
        if self._whole is None:
            self._whole = Code("\n".join(self.chunks))
        return self._whole.holds(quote)

    def function_text(self, name: str) -> str | None:
        """The source of the function `name` the submission defines (its last definition),
        the submission parsed once; None when it defines none."""
        if self._functions is None:
            self._functions = functions_of(self.chunks)
        return self._functions.get(name)

    def called(self, function: str) -> dict[str, str | None]:
        """{name: the function that names it} of `function` (None) and of the submission's
        functions it names (not the student API's, which are checked on their own),
        transitively, in the order found; {} when the submission defines no `function`."""
        if self.function_text(function) is None:
            return {}
        found: dict[str, str | None] = {function: None}
        todo = [function]
        while todo:
            name = todo.pop()
            pairs = itertools.pairwise(["", *tokens(self._functions[name])])
            for other in sorted({t for before, t in pairs  # a name it calls, not its def's
                                 if _NAME.fullmatch(t) and before != "def"} - found.keys()):
                if other in self._functions and other not in self.api:
                    found[other] = name
                    todo.append(other)
        return found


def definitions(chunks: list[str]) -> Iterator[tuple[str, ast.FunctionDef]]:
    """(its chunk, the definition) of each function the chunks define, at any depth, in order;
    a chunk that does not parse gives none."""
    for chunk in chunks:
        try:
            tree = ast.parse(chunk)
        except Exception:  # noqa: BLE001 - hostile text: SyntaxError, ValueError, RecursionError
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield chunk, node


def functions_of(chunks: list[str]) -> dict[str, str]:
    """{name: source} of the functions the chunks define, at any depth (a later one wins); a
    chunk that does not parse gives none."""
    return {node.name: "\n".join(chunk.splitlines()[node.lineno - 1:node.end_lineno])
            for chunk, node in definitions(chunks)}


def submission_code(path: str | Path | None, most: int = MOST_BYTES,
                    api: frozenset = frozenset()) -> Source | None:
    """The submission's code (a notebook's code cells), read as the worker reads it (at most
    `most` bytes; `api`: Source's); None when it cannot be read (a link, too large, not a file,
    not code)."""
    from grader.similarity.code import code_chunks
    from grader.worker.serve import read_submission

    if path is None:
        return None
    path = Path(path)
    data = read_submission(path, most)
    if not isinstance(data, bytes):
        return None
    chunks = code_chunks(data.decode("utf-8-sig", errors="replace"), path.suffix.lower())
    if chunks is None or sum(map(len, chunks)) > MOST_CODE:
        return None
    return Source(chunks, api)


@functools.cache
def lecture_code(folder: str | None, function: str) -> Code | None:
    """The model solution's code of the student-API function `function`: its reference (the
    course's, for a name its specs declare, else the shipped one) and the reference's functions
    it calls, not the known-wrong variants; None without one (the student bundle has no
    reference)."""
    from grader.checks.course import reference_function

    try:
        found = reference_function(function, folder)
    except Exception:  # noqa: BLE001 - KeyError: no such function; ImportError: no reference;
        return None    # a course reference that does not load says so at its own checks
    texts = [text for called in _called([found]) if (text := _source(called))]
    return Code("\n".join(texts)) if texts else None


def _called(functions: list) -> list:
    """`functions` and, transitively, the functions of their own modules' package they call."""
    seen: dict[int, object] = {}
    todo = list(functions)
    while todo:
        function = todo.pop()
        if id(function) in seen or not inspect.isfunction(function):
            continue
        seen[id(function)] = function
        package = function.__module__.rpartition(".")[0] or function.__module__
        for name in function.__code__.co_names:
            value = function.__globals__.get(name)
            if (inspect.isfunction(value) and value.__module__.startswith(package)
                    and not value.__module__.endswith("misconceptions")):
                todo.append(value)
    return list(seen.values())


def _source(function) -> str | None:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return None


def effected(hint: str, source: Source | None) -> str:
    """`hint` with each quote given as what the student's code computes (`EFFECT` before it)
    said as theirs where their function's code holds it (the words dropped), else left out
    with its words where a comma ends it ("belongs: a copy of its sibling term"), else kept
    with its words (an effect, not their code); as it is without a source."""
    if source is None or EFFECT not in hint:
        return hint

    def one(match: re.Match) -> str:
        if source.holds(match.group(2), placed_in(hint, match.start())):
            return match.group(1) + (match.group(3) or "")
        return "" if match.group(3) else match.group()

    return _EFFECT.sub(one, hint)


def attributed(hint: str, source: Source | None, folder: str | None = None) -> str:
    """`hint` with each code quote the source does not hold said as the model solution's or
    dropped (the module's docstring; `folder`: the exercises'); as it is without a source."""
    if source is None or not hint or "`" not in hint:
        return hint
    hint = effected(hint, source)  # a rewrite's code: theirs, or no quote
    pieces, at, text = [], 0, ""  # text: since the last quote kept
    for match in _SPAN.finditer(hint):
        quote = match.group(1)
        text += hint[at:match.start()]
        at = match.end()
        function = placed_in(hint, match.start())
        theirs = is_fragment(quote) and reads_as_theirs(hint, match.start(), match.end())
        held = theirs and source.holds(quote, function)
        if theirs and not held and (apposed := _apposed(text, hint[match.end():])) is not None:
            text = apposed  # "the result `...` goes" -> "the result goes"
            continue
        kind = THEIRS if held else OTHER
        if theirs and not held and function and (lecture := lecture_code(folder, function)) \
                and lecture.holds(quote):
            kind = MODEL  # never a sentence's start: "In `f`, "
        pieces.append(Quoted(text, LECTURES if kind == MODEL else "", match.group(), kind))
        text = ""
    return said_once(pieces, text + hint[at:], lambda outer, inner: Code(outer).holds(inner))


def reads_as_theirs(hint: str, start: int, end: int) -> bool:
    """Whether the quote at hint[start:end] reads as the student's code: in the first clause of
    a sentence that places something in the student's function ("In `f`, ...", up to a colon),
    not said as the model solution's (or the lecture's) in its clause, not given as the right
    code ("instead of", "where") or as an example."""
    before = _SPAN.sub(_blank, hint[:start])
    sentence = re.split(r"\.\s", before)[-1]
    placed = sentence.rfind("In `")
    clause = _clause(before)
    return (placed >= 0 and re.search(r"[:;]", _outside_brackets(sentence[placed:])) is None
            and not any(said in clause for said in SAID_AS)
            and _CONTRAST.search(clause) is None and _NOT_THEIRS.search(clause) is None
            and _EXAMPLE.match(clause) is None and not hint[end:].lstrip().startswith("belongs"))


def given_as_fix(hint: str, start: int, end: int) -> bool:
    """Whether the quote at hint[start:end] is given as the right code: its clause contrasts it
    with the student's ("instead of", "in place of", "rather than", "where ... belongs")."""
    clause = _clause(_SPAN.sub(_blank, hint[:start]))
    return _CONTRAST.search(clause) is not None or hint[end:].lstrip().startswith("belongs")


def _outside_brackets(text: str) -> str:
    """`text` without what closed brackets hold ("(1) ", "(loops over ...)")."""
    while (shorter := re.sub(r"\([^()]*\)", "", text)) != text:
        text = shorter
    return text


def placed_in(hint: str, start: int) -> str | None:
    """The student's function the sentence around hint[start] places its quote in ("In `f`")."""
    sentence = re.split(r"\.\s", _SPAN.sub(_blank, hint[:start]))[-1]
    named = [m.start() for m in re.finditer(r"In `", sentence)]
    if not named:
        return None
    return re.match(r"In `([^`]*)`", hint[start - len(sentence) + named[-1]:]).group(1)


def _blank(match: re.Match) -> str:
    """A quote with its code blanked (its brackets, dots and colons are no prose)."""
    return match.group()[0] + "x" * (len(match.group()) - 2) + match.group()[-1]


def _clause(text: str) -> str:
    """The end of `text` back to its clause's start (a sentence's, a colon's, or a bracket still
    open), without the brackets closed inside it; `text`'s quotes are blanked."""
    depth, kept = 0, []
    for at in range(len(text) - 1, -1, -1):
        char = text[at]
        if char == ")":
            depth += 1
        elif char == "(" and depth:
            depth -= 1
            continue
        elif char == "(" or (char in ".:;" and not depth and text[at + 1:at + 2] in (" ", "")):
            kept.append(char if char == "(" else "")
            break
        if not depth:
            kept.append(char)
    return "".join(reversed(kept))


def _apposed(before: str, after: str) -> str | None:
    """`before` without its trailing space when the quote only names again what its noun says
    ("the result `...` goes", "the tiling test `...` tests"), else None."""
    noun = _APPOSITIVE.search(before)
    if noun is None or not re.match(r" [a-z]", after):
        return None
    if any(word in _NOT_NOUNS for word in noun.group(2).split()):
        return None
    return before[:-1]
