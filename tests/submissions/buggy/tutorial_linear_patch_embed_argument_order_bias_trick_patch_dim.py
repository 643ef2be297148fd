"""Blind round 15 (b15_12, issue 38): the linear patch embedding with a ViT-from-scratch
tutorial's argument order (image, patch size, weights, bias); patch_dim with cs231n's "bias trick"
(a constant 1 appended to each input vector).

Mistakes:
1. linear_patch_embed's signature is (image, P, W_e, b_e) instead of the API's
   (image, W_e, b_e, P), so a positional call binds P to W_e, W_e to b_e and b_e to P and fails.
   embed_image calls it in the student's order and is right (CORRECT).
2. patch_dim returns P * P * C + 1 instead of P * P * C.

Grader: at blind time and now, the argument order gets the worked example's checklist and
expected/got (an "ambiguous truth value" error), and kernel-stride's property "fix where it
failed"; patch_dim is observed ("the expected count plus 1"). Nothing named.
Since the eleventh session patch_dim's + 1 is named.
Since session 17 the argument order is named (signatures.reordered: called with every argument by
its name the function is right on every case, and by position still wrong): every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:count_plus_one:patch_dim:count-plus-1', 'linear-patch-embed': 'parameters_reordered'}
CORRECT = ('embed_image',)


def patch_dim(P, C=3):
    """Length of a flattened patch as it enters the linear map, with the bias trick (cs231n):
    the P*P*C pixel values plus a constant 1."""
    return P * P * C + 1


def linear_patch_embed(image, P, W_e, b_e):
    """Patch tokens: patchify, then the linear projection (tutorial's order: image, patch size, W, b)."""
    patches = patchify(image, P)
    return patches @ W_e + b_e


def embed_image(image, params):
    """linear_patch_embed, [CLS] first, positions added."""
    tokens = linear_patch_embed(image, params["P"], params["W_e"], params["b_e"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"]
