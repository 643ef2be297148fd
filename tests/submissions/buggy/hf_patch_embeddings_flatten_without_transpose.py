"""Blind round 13 (b13_05, issue 38): HF ViTPatchEmbeddings, `projection(pixel_values).flatten(2)
.transpose(1, 2)`, ported without the transpose.

Mistake: linear_patch_embed computes the conv (kernel = stride = P, right) and returns
`out.transpose(2, 0, 1).reshape(d, -1)`, shape (d, N) instead of (N, d).

Grader: only the checklist on the worked example and kernel-stride's equivalence check; no hint
on the RGB and hidden random checks (expected/got shapes only).
Since choices.result_transposed: the (d, N) result is named on linear-patch-embed.
Since session 13 kernel-stride's equivalence property said that linear_patch_embed loses
points in its own exercise; since blind round 58 (b58_14) that check, which tests the
convolution against the student's linear_patch_embed, is graded with the grader's one standing
in for it, and passes: every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:result_transposed:linear_patch_embed:result-transposed'}


def linear_patch_embed(image, W_e, b_e, P):
    """HF ViTPatchEmbeddings: projection(pixel_values).flatten(2)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    d = W_e.shape[1]
    kernel = W_e.reshape(P, P, C, d)
    out = conv_patch_embed(image, kernel, b_e, P)     # (H/P, W/P, d)
    embeddings = out.transpose(2, 0, 1).reshape(d, -1)  # flatten(2): (d, N)
    return embeddings
