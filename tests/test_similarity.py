"""Similar code across a class (grader/similarity): a class of 30 graded with `grade-all`, in
which one student copied another's `self_attention` and `layer_norm` with renamed variables,
new comments and other spacing. The pair is listed for exactly those functions; students who
wrote the course's common styles, made the same common bugs or handed in the template are not.
Student code is only parsed: hostile input costs nothing but its own fingerprints."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.batch.fingerprints import code_fingerprints
from grader.similarity.code import (
    MAX_PRINTS,
    MAX_SOURCE_BYTES,
    fingerprints,
    submission_fingerprints,
)
from grader.similarity.pairs import similar_pairs

from conftest import EXERCISES, ROOT, SOLUTION, TEMPLATE

STYLES = {  # correct ways to write a function, each used by many students of the class
    "layer_norm": [
        None,  # the solution's
        "def layer_norm(x, gamma, beta, eps=1e-6):\n"
        "    mu = np.mean(x, axis=-1, keepdims=True)\n"
        "    sd = np.sqrt(np.mean((x - mu) ** 2, axis=-1, keepdims=True) + eps)\n"
        "    return gamma * (x - mu) / sd + beta\n",
        "def layer_norm(x, gamma, beta, eps=1e-6):\n"
        "    centered = x - x.mean(-1, keepdims=True)\n"
        "    return centered / np.sqrt((centered ** 2).mean(-1, keepdims=True) + eps) * gamma"
        " + beta\n",
    ],
    "softmax": [
        None,
        "def softmax(x, axis=-1):\n"
        "    z = x - x.max(axis=axis, keepdims=True)\n"
        "    e = np.exp(z)\n"
        "    return e / e.sum(axis=axis, keepdims=True)\n",
    ],
    "patchify": [
        None,
        "def patchify(image, P):\n"
        "    image = _as_hwc(image)\n"
        "    H, W, C = image.shape\n"
        "    num_patches(H, W, P)\n"
        "    rows = [image[i:i + P, j:j + P].reshape(-1) for i in range(0, H, P)\n"
        "            for j in range(0, W, P)]\n"
        "    return np.array(rows)\n",
    ],
    "embed_image": [
        None,
        "def embed_image(image, params):\n"
        "    t = linear_patch_embed(image, params['W_e'], params['b_e'], params['P'])\n"
        "    return np.vstack([params['cls'], t]) + params['pos']\n",
    ],
}
BUGS = [  # common bugs, each made by 6-7 students, in functions written one way by everyone
    ("return (H // P) * (W // P)", "return (H - P + 1) * (W - P + 1)"),
    ("+ (1 if cls_token else 0)", "+ 0"),
    ("return P * P * C", "return P * P"),
    ("return x[0] @ params", "return x.mean(axis=0) @ params"),
]
ORIGINAL = {  # one student's own way, which nobody else in the class wrote
    "self_attention": '''def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    size = d // heads
    query = x @ p["Wq"] + p["bq"]
    key = x @ p["Wk"] + p["bk"]
    value = x @ p["Wv"] + p["bv"]
    outputs = []
    for head in range(heads):
        cols = slice(head * size, (head + 1) * size)
        logits = query[:, cols] @ key[:, cols].T / np.sqrt(size)
        if causal:
            logits = logits + np.triu(np.full((T, T), -np.inf), k=1)
        weights = softmax(logits, axis=-1)
        outputs.append(weights @ value[:, cols])
    return np.concatenate(outputs, axis=1) @ p["Wo"] + p["bo"]
''',
    "layer_norm": '''def layer_norm(x, gamma, beta, eps=1e-6):
    count = x.shape[-1]
    average = x.sum(axis=-1, keepdims=True) / count
    spread = ((x - average) * (x - average)).sum(axis=-1, keepdims=True) / count
    scaled = (x - average) * (spread + eps) ** -0.5
    return scaled * gamma + beta
''',
}
COPIED = {  # the same, variables renamed, other comments and spacing
    "self_attention": '''def self_attention(x, p, heads, causal=False):
    # multi-head attention, my own version
    n_tok, width = x.shape
    if width % heads:
        raise ValueError("heads must divide d")

    hd = width // heads      # head size
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    res = []
    for h in range(heads):
        sl = slice(h * hd, (h + 1) * hd)   # this head's columns
        s = Q[:, sl] @ K[:, sl].T / np.sqrt(hd)
        if causal:
            s = s + np.triu(np.full((n_tok, n_tok), -np.inf), k=1)
        a = softmax(s, axis=-1)
        res.append(a @ V[:, sl])


    return np.concatenate(res, axis=1) @ p["Wo"] + p["bo"]
''',
    "layer_norm": '''def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise each token."""
    n = x.shape[-1]
    m = x.sum(axis=-1, keepdims=True) / n            # mean
    v = ((x - m) * (x - m)).sum(axis=-1, keepdims=True) / n
    z = (x - m) * (v + eps) ** -0.5
    return z * gamma + beta
''',
}
PLANTED = ("pat", "quinn")  # pat wrote ORIGINAL, quinn copied it
TEMPLATE_ONLY = ("tess", "toby")


def with_functions(source: str, functions: dict[str, str]) -> str:
    """`source` with each named top-level function replaced by the given text."""
    lines = source.splitlines(keepends=True)
    spans = {node.name: (node.lineno - 1, node.end_lineno)
             for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    for name, (start, end) in sorted(spans.items(), key=lambda item: -item[1][0]):
        if name in functions:
            lines[start:end] = [functions[name]]
    return "".join(lines)


def class_of_30(folder: Path) -> None:
    solution = SOLUTION.read_text()
    for i in range(26):
        chosen = {name: styles[(i + k) % len(styles)] for k, (name, styles)
                  in enumerate(STYLES.items())}
        text = with_functions(solution, {n: t for n, t in chosen.items() if t is not None})
        for j, (old, new) in enumerate(BUGS):
            if (i + j) % 4 == 0:
                text = text.replace(old, new, 1)
        (folder / f"student{i:02d}.py").write_text(text)
    (folder / f"{PLANTED[0]}.py").write_text(with_functions(solution, ORIGINAL))
    (folder / f"{PLANTED[1]}.py").write_text(with_functions(
        with_functions(solution, {"softmax": STYLES["softmax"][1]}), COPIED))
    for name in TEMPLATE_ONLY:
        (folder / f"{name}.py").write_text(TEMPLATE.read_text())


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    folder, out = tmp_path_factory.mktemp("class"), tmp_path_factory.mktemp("out")
    class_of_30(folder)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder),
                           "--out", str(out), "--jobs", "2", "--no-progress",
                           "--exercises", str(EXERCISES)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "similar code: 1 pair of submissions listed in report.html" in done.stdout
    return out


class SimilarTable(HTMLParser):
    """The rows of the table under the "Similar code" heading."""

    def __init__(self):
        super().__init__()
        self.heading, self.rows, self.cell, self.inside = "", [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.heading = ""
        elif tag == "tr" and self.heading == "Similar code":
            self.rows.append([])
        elif tag == "td" and self.heading == "Similar code":
            self.cell = ""
        self.inside = tag == "h2"

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell)
            self.cell = None
        self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.heading += data
        elif self.cell is not None:
            self.cell += data


def test_the_planted_pair_is_listed_for_the_copied_functions_and_nobody_else(graded):
    table = SimilarTable()
    table.feed((graded / "report.html").read_text())
    rows = [row for row in table.rows if row]
    assert len(rows) == 1, rows
    a, b, functions = rows[0]
    assert (a, b) == PLANTED
    assert set(re.findall(r"(\w+) \(\d+%\)", functions)) == {"self_attention", "layer_norm"}


def test_the_template_is_ignored_and_would_be_flagged_otherwise(graded):
    code = {path.stem: json.loads(path.read_text())["code"]
            for path in (graded / "results").glob("*.json")}
    assert len(code) == 30 and all(isinstance(c, dict) for c in code.values())
    course = json.loads((graded / "batch.json").read_text())["course_code"]
    assert "student_template/vit_exercises.py" in course["files"]
    assert "solutions/vit_exercises.py" in course["files"]
    listed = similar_pairs(code, course["fingerprints"]).pairs
    assert [(p.a, p.b) for p in listed] == [PLANTED]
    # everything the template students handed in is the course's own code
    for student in TEMPLATE_ONLY:
        assert {h for hashes in code[student].values() for h in hashes} <= set(
            course["fingerprints"])
    # two students who handed in the solution as it is: a copy of it, which is not theirs
    two = {"sol": code_fingerprints(SOLUTION), "ution": code_fingerprints(SOLUTION)}
    assert [(p.a, p.b) for p in similar_pairs(two).pairs] == [("sol", "ution")]
    assert similar_pairs(two, course["fingerprints"]).pairs == ()


def test_renamed_variables_comments_and_spacing_change_no_fingerprint():
    assert fingerprints([ORIGINAL["layer_norm"]]) == fingerprints([COPIED["layer_norm"]])
    two = {"copied": fingerprints([COPIED["layer_norm"]]),
           "own": fingerprints([ORIGINAL["layer_norm"]])}
    assert [(p.a, p.b) for p in similar_pairs(two).pairs] == [("copied", "own")]
    two["copied"] = fingerprints([STYLES["layer_norm"][1]])  # another way to write it
    assert similar_pairs(two).pairs == ()


def test_a_notebook_is_its_code_cells_and_hostile_code_is_only_parsed(tmp_path):
    cells = [{"cell_type": "markdown", "source": "def softmax(x): nonsense"},
             {"cell_type": "code", "source": ["%matplotlib inline\n", ORIGINAL["layer_norm"]]},
             {"cell_type": "code", "source": "def broken(:\n"}]
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": cells}))
    assert submission_fingerprints(tmp_path / "nb.ipynb") == fingerprints([ORIGINAL["layer_norm"]])
    flag = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(flag)!r}, 'w').close()\n"
                                      "def patchify(image, P):\n    return 1\n")
    assert set(submission_fingerprints(tmp_path / "evil.py")) == {"patchify"}
    assert not flag.exists()  # parsed, never run
    (tmp_path / "deep.py").write_text("def f():\n    return " + "(" * 200_000 + ")" * 200_000)
    assert submission_fingerprints(tmp_path / "deep.py") == {}
    long = "def patchify(image, P):\n" + "".join(f"    x = image + {i}\n" for i in range(9000))
    (tmp_path / "long.py").write_text(long)
    assert 0 < len(submission_fingerprints(tmp_path / "long.py")["patchify"]) <= MAX_PRINTS
    (tmp_path / "big.py").write_text("#" * (MAX_SOURCE_BYTES + 1))
    assert submission_fingerprints(tmp_path / "big.py") is None
