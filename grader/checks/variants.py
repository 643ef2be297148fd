"""Per-student variants (docs/spec.md, "Variants"): a spec's `variants:` names parameters, each a
list of values or a rule over earlier ones; the variant space is their product, enumerated in a
fixed order, at most MAX_VARIANTS. A variant is the spec's data with every parameter filled in
(a string exactly "{side}" becomes the value, "{side}" inside text is replaced, each generated
check's seed is mixed with the variant's index): the kinds see an ordinary spec. Which variant a
student grades is a pure function of the course secret (instructor-side only: SECRET_FILE in the
exercises folder, which the worker never sees, or SECRET_ENV), the exercise's id and the
student's id. Variant 0 is the shared version, graded without an id.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from grader.spec.errors import SpecError
from grader.spec.model import nearest_line

MAX_VARIANTS = 64
SECRET_FILE = ".course-secret"
SECRET_ENV = "VITGRADE_COURSE_SECRET"
RULES = ("divisors_of", "multiples_of")


def space(data: dict, lines: dict, shown: str) -> list[dict]:
    """Every variant's values ({name: value}), in the fixed order; SpecError at file:line for a
    rule naming no earlier parameter, an empty space or one over MAX_VARIANTS. [{}]: none."""
    combos: list[dict] = [{}]
    for name, rule in data.get("variants", {}).items():
        if isinstance(rule, dict):
            key = next(k for k in RULES if k in rule)
            if rule[key] not in combos[0]:
                raise SpecError(shown, lines.get(("variants", name, key)),
                                f"variants: {name}: {key}: '{rule[key]}' is not a parameter "
                                f"declared before it ({', '.join(combos[0]) or 'none'})")
        try:
            combos = [{**combo, name: value} for combo in combos for value in _values(rule, combo)]
        except (TypeError, ZeroDivisionError):
            raise SpecError(shown, lines.get(("variants", name)), f"variants: {name}: its rule "
                            "needs a parameter of whole numbers") from None
        if not combos:
            raise SpecError(shown, lines.get(("variants", name)),
                            f"variants: {name}: no value fits some variant")
        if len(combos) > MAX_VARIANTS:
            raise SpecError(shown, lines.get(("variants",)),
                            f"variants: {len(combos)} or more variants; at most {MAX_VARIANTS}")
    return combos


def _values(rule, earlier: dict) -> list:
    if isinstance(rule, list):
        return rule
    if "divisors_of" in rule:
        return [v for v in rule["among"] if v and earlier[rule["divisors_of"]] % v == 0]
    return [v for v in rule["among"] if v % earlier[rule["multiples_of"]] == 0]


def instantiate(data: dict, values: dict, index: int) -> dict:
    """The spec's data as variant `index` (values `values`) reads: no `variants:` key."""
    if not values:
        return data
    pattern = re.compile(r"\{(" + "|".join(map(re.escape, values)) + r")\}")

    def fill(value):
        if isinstance(value, str):
            whole = pattern.fullmatch(value)
            return values[whole[1]] if whole else pattern.sub(lambda m: str(values[m[1]]), value)
        if isinstance(value, list):
            return [fill(v) for v in value]
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        return value

    out = {k: v if k in ("id", "checks") else fill(v) for k, v in data.items() if k != "variants"}
    out["checks"] = []
    for check in data["checks"]:
        check = {k: (v if k == "name" else fill(v)) for k, v in check.items()}
        if isinstance(check.get("generate"), dict) and index:
            check["generate"] = {**check["generate"],
                                 "seed": mixed_seed(check["generate"].get("seed", 0), index)}
        if isinstance(check.get("seed"), int) and index:  # a property check's draws
            check["seed"] = mixed_seed(check["seed"], index)
        out["checks"].append(check)
    return out


def unfilled(data: dict, *, shared: bool = False) -> dict:
    """The spec without any variant's numbers: each parameter named in text (`side`), no case
    that uses one (those answers are each student's own). `shared`: the student bundle's: a
    parameter used elsewhere (a property's options) takes the shared version's value, and a
    function check left without cases is left out."""
    names = {name: f"`{name}`" for name in data.get("variants", {})}
    if not names:
        return data
    out = instantiate(data, names, 0)
    named, out["checks"] = out["checks"], []
    first = instantiate(data, space(data, {}, "")[0], 0)["checks"]
    for check, raw, filled in zip(named, data["checks"], first, strict=True):
        if shared and _uses({k: v for k, v in raw.items() if k not in ("name", "hint", "cases")},
                            names):  # a property's options: the shared version's values
            check = {**filled, "name": check["name"], **({"hint": check["hint"]}
                                                         if "hint" in check else {})}
        kept = [c for c, r in zip(check.get("cases", []), raw.get("cases", []), strict=True)
                if not _uses(r, names)]
        check.pop("cases", None)
        check.update({"cases": kept} if kept else {})
        if not shared or kept or "generate" in check or "call" not in check:
            out["checks"].append(check)
    out["question"] = (out.get("question", "").rstrip() + f"\n\n*{', '.join(names.values())}: "
                       f"your own numbers, picked from your student id.*\n")
    return out


def _uses(value, names) -> bool:
    return any(f"{{{name}}}" in repr(value) for name in names)


def mixed_seed(seed: int, index: int) -> int:
    """A generated check's seed for variant `index` (variant 0 keeps the spec's)."""
    digest = hashlib.sha256(f"{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def unknown_placeholders(data: dict, lines: dict, shown: str) -> list[SpecError]:
    """One error per check value that is exactly "{name}" for a name `variants:` does not
    declare: a typo would otherwise be passed to the student as a string."""
    declared, errors = list(data.get("variants", {})), []

    def walk(value, path):
        if isinstance(value, str):
            found = value[:1] == "{" and re.fullmatch(r"\{([A-Za-z_]\w*)\}", value)
            if found and found[1] not in declared:
                names = ", ".join(declared) or "none"
                errors.append(SpecError(shown, nearest_line(lines, path), f"'{value}': no "
                                        f"parameter '{found[1]}' in variants: ({names})"))
        elif isinstance(value, (list, dict)):
            for k, v in value.items() if isinstance(value, dict) else enumerate(value):
                walk(v, (*path, k))

    walk(data["checks"], ("checks",))
    return errors


def placeholder_cases(data: dict) -> list[tuple[int, int]]:
    """(check, case) of each spec case whose inputs use a parameter and whose answer the
    reference computes (no `expect`, no `raises`): every variant must be solvable there."""
    found, names = [], data.get("variants", {})
    for i, check in enumerate(data["checks"]):
        for j, case in enumerate(check.get("cases", []) if names else ()):
            used = any(f"{{{name}}}" in repr([case.get("args"), case.get("kwargs")])
                       for name in names)
            if used and "expect" not in case and "raises" not in case:
                found.append((i, j))
    return found


def table_key(exercise, name: str) -> str:
    """What the compiled tables call check `name` of `exercise`'s variant (variant 0: `name`)."""
    return f"{name}@{exercise.variant}" if exercise.variant else name


# --- which variant -------------------------------------------------------------------------------

def course_secret(folder: str | Path) -> bytes | None:
    """The course secret: SECRET_ENV, else the exercises folder's SECRET_FILE; None: neither."""
    text = os.environ.get(SECRET_ENV, "").strip()
    if not text:
        try:
            text = (Path(folder) / SECRET_FILE).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
    return text.encode() or None


def ensure_secret(folder: str | Path) -> bool:
    """Create the folder's SECRET_FILE (random, mode 0600) unless it exists; True: created."""
    try:
        descriptor = os.open(Path(folder) / SECRET_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                             0o600)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(os.urandom(32).hex() + "\n")
    return True


def variant_index(secret: bytes, exercise_id: str, student_id: str, count: int) -> int:
    """HMAC-SHA256(secret, exercise id NUL student id) mod `count`: the same on every run."""
    import hmac  # with a student id and a course secret only

    digest = hmac.new(secret, f"{exercise_id}\0{student_id}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % count
