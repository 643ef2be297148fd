"""The pairs of a class whose code is unusually similar, function by function.

    code:        {student: {function: [fingerprint, ...]} or None (no code could be read)}
    boilerplate: fingerprints of the template and the instructor's solution (code.py)

A fragment counts only when it is rare: not boilerplate, and in the same function of at most
`rare_limit(n)` students; a pair is listed for a function from MIN_SHARED rare fragments making
MIN_SIMILARITY of the smaller version. An index of the rare fragments finds the pairs, not n^2
comparisons (docs/architecture.md, "Similar code").
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

MIN_SHARED = 8          # rare fragments in common, at least: a few lines, not one edit
MIN_SIMILARITY = 0.5    # of the smaller version's fragments
RARE_SHARE = 0.1        # a fragment in more than this share of the class (and > 3) is common
MAX_PAIRS = 100         # listed, most similar first


@dataclass(frozen=True)
class Match:
    function: str
    similarity: float   # shared rare fragments / fragments of the smaller version
    shared: int


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class Similarity:
    pairs: tuple[Pair, ...]
    compared: int                          # students whose code was read
    without_code: tuple[str, ...] = ()     # not graded, or no code could be read
    ignored: tuple[str, ...] = ()          # the boilerplate's files, as shown
    rare_limit: int = 0
    more: int = 0                          # pairs found past MAX_PAIRS


def rare_limit(students: int) -> int:
    return max(3, math.floor(RARE_SHARE * students))


def similar_pairs(code: dict, boilerplate=(), ignored=()) -> Similarity:
    boilerplate = set(boilerplate)
    readable = {s: f for s, f in code.items() if isinstance(f, dict)}
    limit = rare_limit(len(readable))
    found: dict[tuple[str, str], list[Match]] = defaultdict(list)
    functions = sorted({name for f in readable.values() for name in f})
    for function in functions:
        versions = {s: set(f[function]) - boilerplate for s, f in readable.items()
                    if isinstance(f.get(function), list)}
        holders: dict[int, list[str]] = defaultdict(list)
        for student, prints in versions.items():
            for fingerprint in prints:
                holders[fingerprint].append(student)
        shared: dict[tuple[str, str], int] = defaultdict(int)
        for students in holders.values():
            if 2 <= len(students) <= limit:
                students = sorted(students)
                for i, a in enumerate(students):
                    for b in students[i + 1:]:
                        shared[a, b] += 1
        for (a, b), count in shared.items():
            smaller = min(len(versions[a]), len(versions[b]))
            if count >= MIN_SHARED and count / smaller >= MIN_SIMILARITY:
                found[a, b].append(Match(function, round(count / smaller, 3), count))
    pairs = sorted((Pair(a, b, tuple(m)) for (a, b), m in found.items()),
                   key=lambda p: (-len(p.matches), -max(m.similarity for m in p.matches),
                                  p.a, p.b))
    return Similarity(tuple(pairs[:MAX_PAIRS]), len(readable),
                      tuple(sorted(s for s in code if s not in readable)), tuple(ignored), limit,
                      max(0, len(pairs) - MAX_PAIRS))
