"""A sentence's quotes of the model solution's code said as such once, not once a quote (issue 38).

quotes.attributed says each quote the student's code does not hold as "the model solution's
`...`"; a sentence that quotes several read "the model solution's `image.reshape(H // P, P, W //
P, P, C)` is given the model solution's `H // P` and the model solution's `W // P` the other way
round" (the buggy fixtures' patchify, LayerNorm and causal-mask hints). Within one sentence whose
quotes are none of them the student's code, a quote of the model solution's says so once:

- one joined to the quote before it, also the model solution's, by ", ", " and ", " or ", ", and "
  or ", or " shares its words: "the model solution's `p['ln1_g']` and `p['ln1_b']`";
- one whose code the quote just before it holds, the model solution's too, with no clause, bracket
  or "you" between them, is said as that quote's: "the model solution's `image.reshape(H // P, P,
  W // P, P, C)` is given its `H // P`" (the reshape's own `H // P`, so the model solution's).

Each other quote keeps its words. A sentence that also quotes the student's own code keeps one
"the model solution's" a quote: a bare quote or an "its" beside theirs could be read as theirs.
Never "In the model solution, ...": the sentence says what the student's code does, in the model
solution's terms; said of the model solution, it would tell a mistake the model solution has not.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

MODEL, THEIRS, OTHER = "model", "theirs", "other"  # whose code a quote is, as the hint says it
ITS = "its "
_JOINED = re.compile(r",? (?:and|or) |, ")  # coordinated quotes: one determiner for the list
_SENTENCE_END = re.compile(r"\.\s")
_BETWEEN_CLAUSES = re.compile(r"[.:;()]|\byou(?:r)?\b")  # "its" would reach past these


@dataclass
class Quoted:
    """One quote of a hint and the text before it (since the quote before): `said` is what says
    whose it is ("the model solution's ", "its ", or ""), `kind` MODEL where `said` does."""
    before: str
    said: str
    quote: str  # with its backticks
    kind: str


def said_once(pieces: list[Quoted], tail: str, holds: Callable[[str, str], bool]) -> str:
    """The hint the pieces and `tail` make, each sentence's model-solution quotes said once
    (the module's docstring); `holds(outer, inner)`: whether code `outer` holds code `inner`."""
    for sentence in _sentences(pieces):
        if any(piece.kind == THEIRS for piece in sentence):
            continue
        for previous, piece in itertools.pairwise(sentence):
            if piece.kind != MODEL or previous.kind != MODEL:
                continue
            if _JOINED.fullmatch(piece.before):
                piece.said = ""
            elif (not _BETWEEN_CLAUSES.search(piece.before)
                  and holds(previous.quote[1:-1], piece.quote[1:-1])):
                piece.said = ITS
    return "".join(p.before + p.said + p.quote for p in pieces) + tail


def _sentences(pieces: list[Quoted]) -> list[list[Quoted]]:
    """The pieces in runs, one a sentence: a new one where the text before a quote ends one."""
    out: list[list[Quoted]] = []
    for piece in pieces:
        if not out or _SENTENCE_END.search(piece.before):
            out.append([])
        out[-1].append(piece)
    return out
