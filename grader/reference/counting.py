"""Counting patches, tokens and attention scores (lecture 4.2, section 4 step 1; Practice 1, 4, 5).

Every count is a Python int. Sizes that P x P patches do not tile raise ValueError: ViT patches
tile, they are not overlapping CNN windows.
"""
import operator


def as_int(name, value):  # int-like -> int
    """`value` as a Python int; TypeError for floats such as 224.0 (sizes are integers)."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None


def check_patch_size(P):  # int-like -> int
    """P as an int, or ValueError unless it is positive."""
    P = as_int("patch size P", P)
    if P <= 0:
        raise ValueError(f"patch size must be positive, got {P}")
    return P


def check_tiling(H, W, P):  # int-like x 3 -> (int, int, int)
    """(H, W, P) as ints, or ValueError unless P x P patches tile an H x W image exactly."""
    H, W, P = as_int("height H", H), as_int("width W", W), check_patch_size(P)
    if H <= 0 or W <= 0:
        raise ValueError(f"image size must be positive, got {H}x{W}")
    for side in (H, W):
        if side % P:
            raise ValueError(f"patch size {P} does not tile a {H}x{W} image: "
                             f"{side} % {P} = {side % P}")
    return H, W, P


def num_patches(H, W, P):  # -> N = (H/P)(W/P)
    """Number of non-overlapping P x P patches in an H x W image."""
    H, W, P = check_tiling(H, W, P)
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):  # -> N, or N + 1 with [CLS]
    """Sequence length entering the transformer: the patches, plus one for [CLS]."""
    return num_patches(H, W, P) + (1 if cls_token else 0)


def patch_dim(P, C=3):  # -> P*P*C
    """Numbers in one flattened P x P x C patch (768 for P = 16, RGB)."""
    P, C = check_patch_size(P), as_int("channels C", C)
    if C <= 0:
        raise ValueError(f"channels must be positive, got {C}")
    return P * P * C


def attention_scores(num_tokens):  # T -> T**2
    """Scores in one attention map of one head: every token against every token."""
    T = as_int("num_tokens", num_tokens)
    if T < 0:
        raise ValueError(f"number of tokens must be non-negative, got {T}")
    return T * T
