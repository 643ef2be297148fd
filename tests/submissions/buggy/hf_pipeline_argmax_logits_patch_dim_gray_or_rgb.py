"""Blind round 16 (b16_11, issue 38): vit_forward after a Hugging Face pipeline snippet
(`logits.argmax(-1)`), patch_dim with a channel check from a PIL tutorial.

Mistakes:
1. vit_forward returns int(argmax(logits)) instead of the logits.
2. patch_dim raises ValueError unless C is 1 or 3.

Grader: at blind time the argmax got only vit_forward's checklist and patch_dim nothing (a hidden
check's "your code raised ValueError"). Now the argmax is named (the logits' argmax returned);
patch_dim still gets nothing.
Since session 14 patch_dim's refusal was observed (only_gray_or_rgb); since session 17 it is
named (op:guarded:patch_dim:gray-or-rgb-only, error_model/guards.py: "`patch_dim` refuses every
channel count C but 1 and 3"): the guard raises on exactly the calls the code raised on, the
hidden check's and C = 1, 2, 3, 4, 6, and returns the reference's count on every other.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:output_activation:vit_forward:result-through-argmax',
          'flatten-length': 'op:guarded:patch_dim:gray-or-rgb-only'}


def patch_dim(P, C=3):
    """Flattened patch length for a gray or RGB image."""
    if C not in (1, 3):
        raise ValueError(f"images are gray (C=1) or RGB (C=3), got C={C}")
    return P * P * C


def vit_forward(image, params):
    """HF pipeline: model(**inputs).logits.argmax(-1)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = x[0] @ params["W_head"] + params["b_head"]
    return int(np.argmax(logits, axis=-1))
