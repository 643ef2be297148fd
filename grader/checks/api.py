"""The student API's functions and the ones each is built on, as the lecture builds them
(docs/student-api.md), and the student names a check calls or reads: what its exercise must list
in `uses:`, and what is never replaced by a stand-in while it is graded (dependencies.py)."""

from grader.spec.model import Check

from .properties import PROPERTY_CALLS

BUILT_ON: dict[str, tuple[str, ...]] = {
    "num_tokens": ("num_patches",),
    "linear_patch_embed": ("patchify",),
    "embed_image": ("linear_patch_embed", "patchify"),
    "self_attention": ("softmax",),
    "encoder_block": ("layer_norm", "self_attention", "softmax"),
    "vit_forward": ("embed_image", "linear_patch_embed", "patchify", "encoder_block",
                    "self_attention", "softmax", "layer_norm"),
}


def names_read(check: Check) -> tuple[str, ...]:
    """The student names a check calls or reads; for an integration check also every function
    its call is built on (api.py)."""
    if check.kind == "call":
        return (check.call,) + (BUILT_ON.get(check.call, ()) if check.integration else ())
    if check.kind == "answer":
        return ("ANSWERS",)
    calls = PROPERTY_CALLS.get(check.property_name)
    names = calls(dict(check.options)) if calls else ()
    if check.integration:
        names += tuple(n for name in names for n in BUILT_ON.get(name, ()))
    return names
