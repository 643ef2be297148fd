"""Input expressions that point at a pretrained checkpoint (builders of grader.checks.inputs).

    {checkpoint_params: checkpoints/tiny-vit}                the `params` for vit_forward, float64
    {checkpoint_sample: checkpoints/tiny-vit, part: image}   the image saved beside it, (H, W, C)
    {checkpoint_sample: checkpoints/tiny-vit, part: logits}  the logits the library computed for it

The folder holds config.json and model.safetensors (any layout `ViT.from_pretrained` reads)
and, for `checkpoint_sample`, sample.npz. A relative folder is looked up in the exercises folder
in use, then in the installed one. Params are only built for a checkpoint whose semantics are
the student API's (LayerNorm eps 1e-6, exact GELU, no pre-LayerNorm, final LayerNorm on the
tokens, [CLS] into a linear head): for any other, vit_forward cannot reproduce the model, and
the expression is a spec mistake rather than an exercise no one can pass. Like every builder,
these raise ValueError (or KeyError) for a spec mistake, and `inputs.evaluate` makes that an
InputError.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .block_params import BLOCK_KEYS

SAMPLE_FILE = "sample.npz"
STUDENT_SEMANTICS = {"eps": 1e-6, "activation": "gelu", "pool": "cls", "pre_norm": False,
                     "norm_pooled": False, "head_activation": "none"}
TOP_KEYS = ("P", "heads", "W_e", "b_e", "cls", "pos", "ln_g", "ln_b", "W_head", "b_head")


def checkpoint_folder(name, spec_folder=None) -> Path:
    """The checkpoint folder `name`: absolute, or inside the spec's own folder (`spec_folder`;
    None: the exercises folder found from here, else the installed one). Never from where a run
    was started: a student's repository could bring a checkpoint of its own."""
    from grader.spec.locate import find_exercises, installed_exercises

    path = Path(str(name))
    if path.is_absolute():
        candidates = [path]
    elif spec_folder is not None:
        candidates = [Path(spec_folder) / path]
    else:
        candidates = [find_exercises() / path, installed_exercises() / path]
    for folder in candidates:
        if (folder / "config.json").is_file():
            return folder
    looked = ", ".join(str(c) for c in candidates)
    raise ValueError(f"no checkpoint folder {name!r} (looked in {looked})")


def checkpoint_params(expr, spec_folder=None) -> dict:
    """params for vit_forward from the checkpoint's weights, float64 (exactly the stored values)."""
    from grader.reference import ViT

    try:
        folder = checkpoint_folder(expr["checkpoint_params"], spec_folder)
        model = ViT.from_pretrained(folder, dtype="float64")
    except ImportError as exc:
        raise ValueError(str(exc)) from None
    differs = {k: getattr(model.config, k) for k, v in STUDENT_SEMANTICS.items()
               if getattr(model.config, k) != v}
    if differs or not model.config.num_classes:
        raise ValueError(f"checkpoint {expr['checkpoint_params']!r} is not what vit_forward "
                         f"computes: {differs or 'it has no classifier head'} "
                         f"(vit_forward: {STUDENT_SEMANTICS})")
    p = model.params
    params = {k: p[k] if k in ("P", "heads") else np.array(p[k]) for k in TOP_KEYS}
    params["blocks"] = [{k: np.array(block[k]) for k in BLOCK_KEYS} for block in p["blocks"]]
    return params


def checkpoint_sample(expr, spec_folder=None) -> np.ndarray:
    """One array of the checkpoint's sample.npz (`part: image` or `part: logits`)."""
    part = expr.get("part", "image")
    folder = checkpoint_folder(expr["checkpoint_sample"], spec_folder)
    with np.load(folder / SAMPLE_FILE, allow_pickle=False) as sample:
        if part not in sample.files:
            raise ValueError(f"{SAMPLE_FILE} has no {part!r} (it has {', '.join(sample.files)})")
        return np.array(sample[part], dtype=np.float64)

