"""Blind round 80 (b80_01, issue 38): attention_scores and patchify ported from
Hugo300/LLM_from_scratch `classes/activation.py`.

Mistakes:
1. attention_scores (line 60 of the file as delivered): `math.pow(num_tokens, 2)` returns a
   float (38809.0). Wrong on every call.
2. patchify (lines 74-78): goes channels first (`transpose(2, 0, 1)`) and flattens each patch
   as (c, p1, p2), not (p1, p2, c). Wrong when C > 1 only; it carries into linear_patch_embed,
   embed_image and vit_forward for RGB images.

Grader: at blind time (a4b8673f) and now, 97/110. Mistake 1 named on attention-cost ("In
`attention_scores`, the count comes out as a float ... Compute it with `*`, `**` and `//`, or
return int(...)"); mistake 2 named on patchify ("You flattened each patch channel first, (c, p1,
p2) ... (p1, p2, c)"); vit-checkpoint observes the broken patchify. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count_as_float:attention_scores:count-as-float',
          'patchify': 'patchify_channel_first'}


def attention_scores(num_tokens):
    # every token attends to every token
    return math.pow(num_tokens, 2)


def patchify(image, P):
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("expected (H, W) or (H, W, C)")
    H, W, C = image.shape
    num_patches(H, W, P)
    # go to channels first like torch: (C, H, W)
    x = image.transpose(2, 0, 1)
    x = x.reshape(C, H // P, P, W // P, P)
    # (h, w, C, p, p)
    x = x.transpose(1, 3, 0, 2, 4)
    return x.reshape((H // P) * (W // P), C * P * P)
