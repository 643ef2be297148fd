"""A new exercise spec that validates as written: `vitgrade new ID [--call NAME]`.

The scaffold calls one student-API function on a lecture-sized example (the reference computes
the expected value), adds hidden generated cases with the generator that fits the function, and
shows, commented out, a misconception, a multiple-choice question and a property check, so an
instructor edits rather than starts from a blank page.
"""
from __future__ import annotations

import re
from pathlib import Path

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")

CLOSE = "{mode: allclose, rtol: 1.0e-4, atol: 1.0e-5}"
LOOSE = "{mode: allclose, rtol: 2.0e-3, atol: 2.0e-3}"  # a block and the whole ViT
# student-API name -> (example args as YAML flow, compare, hidden generator)
EXAMPLES = {
    "num_patches": ("[224, 224, 16]", "count", "tiling_sizes"),
    "num_tokens": ("[224, 224, 16]", "count", "token_counts"),
    "patch_dim": ("[16]", "count", "patch_dims"),
    "attention_scores": ("[197]", "count", "sequence_lengths"),
    "patchify": ("[{arange: [4, 4, 1], start: 1}, 2]", "{mode: allclose, rtol: 0, atol: 0}",
                 "images"),
    "linear_patch_embed": ("[{random: [4, 4, 3], seed: 1}, {random: [12, 8], seed: 2}, "
                           "{random: 8, seed: 3}, 2]", CLOSE, "patch_embed_inputs"),
    "conv_patch_embed": ("[{random: [4, 4, 3], seed: 1}, {random: [2, 2, 3, 8], seed: 2}, "
                         "{random: 8, seed: 3}, 2]", CLOSE, "conv_inputs"),
    "conv_equivalent": ("[16]", "equal", "patch_sizes"),
    "embed_image": ("[{random: [4, 4, 3], seed: 1}, {P: 2, W_e: {random: [12, 8], seed: 2}, "
                    "b_e: {random: 8, seed: 3}, cls: {random: 8, seed: 4}, "
                    "pos: {random: [5, 8], seed: 5}}]", CLOSE, "embed_inputs"),
    "softmax": ("[{random: [3, 5], seed: 1}]", "{mode: allclose, rtol: 2.0e-4, atol: 1.0e-6}",
                "softmax_inputs"),
    "layer_norm": ("[{random: [3, 8], seed: 1}, {ones: 8}, {zeros: 8}]", CLOSE,
                   "layer_norm_inputs"),
    "self_attention": ("[{random: [5, 8], seed: 1}, {attention_params: {dim: 8, heads: 2}, "
                       "seed: 2}, 2]", CLOSE, "attention_inputs"),
    "encoder_block": ("[{random: [5, 8], seed: 1}, {block_params: {dim: 8, mlp_dim: 16, "
                      "heads: 2}, seed: 2}, 2]", LOOSE, "block_inputs"),
    "vit_forward": ("[{random: [8, 8, 3], seed: 1}, {vit_params: {image_size: 8, patch_size: 4, "
                    "dim: 8, depth: 1, heads: 2, mlp_dim: 16, num_classes: 3}, seed: 2}]",
                    LOOSE, "vit_inputs"),
}

TEMPLATE = """\
# yaml-language-server: $schema=schema.json
# A new exercise, scaffolded by `vitgrade new {id}`. Edit it, then run `vitgrade validate`,
# `vitgrade grade solutions/vit_exercises.py` (full marks) and `vitgrade render`. See docs/spec.md.
id: {id}
title: {title}
lecture: "TODO: where it comes from in lecture 4.2, e.g. Practice 4 or section 4 step 1"
order: {order}
uses: [{call}]
{declaration}question: |
  TODO: the question as the student sheet shows it. Write `{call}(...)`: ...
checks:
  - name: the lecture's example
    points: 2
    call: {call}
    compare: {compare}
    cases:
      - args: {args}
        # expect: ...          without it the reference computes the expected value
        # hint: ...            shown when this case fails
    # misconceptions:          known-wrong implementations (grader/reference/misconceptions.py)
    #   - like: NAME
    #     title: the mistake, in a few words (what the class report calls it)
    #     hint: What the student did, and what the lecture says instead.
  - name: random inputs
    points: 2
    hidden: true
    call: {call}
    compare: {compare}
    generate: {{generator: {generator}, count: 10, seed: {seed}}}
  # A multiple-choice question (ANSWERS["{key}"]); every option gets its own feedback:
  # - name: ANSWERS["{key}"]
  #   points: 2
  #   answer:
  #     key: {key}
  #     correct: right
  #     options:
  #       right: "Right: why."
  #       wrong: "What this option gets wrong, and what the lecture says."
  # A property check registered in grader/checks/properties.py (see docs/authoring.md):
  # - name: conv with kernel P, stride P equals the linear map
  #   points: 2
  #   property: conv_equals_linear
  #   seed: {seed}
"""


# `vitgrade new ID --function NAME`: a new function, the course's own (grader/checks/course.py)
NEW_FUNCTION = ("[{random: [3, 4], seed: 1}]", CLOSE,
                "shapes, options: {sizes: {T: [1, 6], d: [1, 8]}, args: [[T, d]]}")
DECLARATION = """\
function:                 # a new student-API function, the course's own (docs/authoring.md, 4)
  name: {call}            # computed by reference/{call}.py
  params: [x]             # its required parameters, in order, as the reference has them
  description: "TODO: what it returns, with shapes"
"""
REFERENCE_TEMPLATE = '''\
"""The course's reference for `{call}`: plain numpy, run by the grader, never by student code."""
import numpy as np


def {call}(x):
    """TODO: what it computes, with shapes. (A placeholder: x as floats.)"""
    return np.asarray(x, dtype=float)


MISCONCEPTIONS = {{}}  # name -> a known-wrong variant: {call} with one step changed
'''


def scaffold_spec(exercise_id: str, call: str = "num_patches", order: int = 100,
                  new_function: bool = False) -> str:
    """The YAML text of a new spec for `exercise_id` that checks the student function `call`;
    `new_function`: a new one, which the spec declares (its reference: REFERENCE_TEMPLATE)."""
    if not ID_PATTERN.match(exercise_id):
        raise ValueError("an exercise id is lower case letters, digits and dashes, "
                         f"not {exercise_id!r}")
    if new_function and (call in EXAMPLES or not re.fullmatch(r"[a-z_][a-z0-9_]*", call)):
        raise ValueError(f"--function takes a new name (lower case, digits, _), not {call!r}")
    if call not in EXAMPLES and not new_function:
        raise ValueError(f"no student-API function {call!r}; one of: {', '.join(EXAMPLES)}")
    args, compare, generator = NEW_FUNCTION if new_function else EXAMPLES[call]
    return TEMPLATE.format(id=exercise_id, title=exercise_id.replace("-", " ").capitalize(),
                           order=order, call=call, args=args, compare=compare,
                           generator=generator, seed=sum(map(ord, exercise_id)) % 1000,
                           key=exercise_id.replace("-", "_"),
                           declaration=DECLARATION.format(call=call) if new_function else "")


def next_order(folder: Path) -> int:
    """10 more than the largest `order:` of the specs in `folder` (100 for an empty folder)."""
    found = (re.search(r"^order:\s*(-?\d+)", path.read_text(encoding="utf-8"), re.M)
             for path in folder.glob("*.y*ml"))
    orders = [int(m.group(1)) for m in found if m]
    return max(orders) // 10 * 10 + 10 if orders else 100


def project_exercises() -> Path:
    """The nearest `exercises/` folder in the working folder or a parent, else ./exercises."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "exercises").is_dir():
            return folder / "exercises"
    return here / "exercises"
