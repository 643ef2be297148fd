"""A hint says what the student's code does, never whose code it is: a project's code named in a
sentence ("(vintage-models' PatchConverter)" after "the image is zero-padded evenly on both
sides": blind round 72's b72_04, TF's extract_patches with SAME padding, not that library) is
given as a comparison, "as some libraries do (...)", "as code that ... does (...)", never as the
code's origin. Read off the error model's sentence texts (its modules' string literals, not
their docstrings)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import grader.reference.error_model as error_model
from grader.reference.error_model.tiling import PADS

# "(X's CodeName" or "(X's `code`": a project's own code object named in a parenthesis
CREDIT = re.compile(r"\((?:[A-Za-z][\w.-]*(?:'s|'))(?: and [A-Za-z][\w.-]*(?:'s|'))? "
                    r"(?=[A-Z][a-z]*[A-Z]|`|[A-Z]\w*\b(?![a-z ]))")
# the words before it, in its clause, that give it as a comparison
COMPARED = re.compile(r"\bas (?:some (?:libraries|code) (?:do|does)|an?|(?:[\w-]+ )?code)\b")


def sentence_texts(path: Path):
    """(line, text) of each string literal of a module that is no docstring (an f-string's
    values as `{}`)."""
    tree = ast.parse(path.read_text())
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                       for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            yield node.lineno, node.value


def bare_credits(text: str) -> list[str]:
    """The credits in `text` given neither after a comparison in their clause nor as one."""
    found = []
    for match in CREDIT.finditer(text):
        clause = re.split(r"[.:;]\s", text[:match.start()])[-1]
        inside = text[match.start():].split(")", 1)[0]
        if not COMPARED.search(clause) and not COMPARED.search(inside):
            found.append(text[max(0, match.start() - 40):match.end() + 30])
    return found


def test_the_padding_sentences_credit_no_project_with_the_code():
    for how, _ in PADS.values():
        assert not bare_credits(how), how
    evenly = PADS["image-padded-evenly-to-tile"][0]
    assert "as some libraries do (vintage-models' PatchConverter)" in evenly


def test_no_error_model_sentence_says_whose_code_the_student_s_is():
    folder = Path(error_model.__file__).parent
    bare = [f"{path.name}:{line}: {credit}" for path in sorted(folder.glob("*.py"))
            for line, text in sentence_texts(path) for credit in bare_credits(text)]
    assert bare == [], bare
