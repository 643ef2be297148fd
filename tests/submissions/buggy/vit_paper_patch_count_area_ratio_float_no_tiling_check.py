"""Blind round 31 (b31_11, issue 38): Dosovitskiy et al., "An Image is Worth 16x16 Words" (ICLR
2021), section 3.1, "N = HW/P^2", written as num_patches; num_tokens and patch_dim from the same
section are right (CORRECT).

Mistakes:
1. num_patches: `H * W / P ** 2` returns a float (196.0, not 196); num_tokens returns one too.
2. num_patches: no tiling check, so it never raises ValueError: (10, 10, 4) gives 6.25 and
   (2, 8, 4) gives 1.0.

Grader: at blind time (fbf6cc7) and now, both named by pixels_over_patch_area: "The number is
right but it is a float: HW/P**2 with `/` gives 196.0 ... use `//`" and "HW/P**2 is only a patch
count when P divides both sides; here it does not, so raise ValueError" on patch-count;
token-count keeps its points (the grader's num_patches standing in). Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area'}
CORRECT = ('num_tokens', 'patch_dim')  # the paper's N + 1 and P^2 * C, right


def num_patches(H, W, P):
    """N = HW / P^2 (section 3.1)."""
    N = H * W / P ** 2
    return N


def num_tokens(H, W, P, cls_token=True):
    """z_0 = [x_class; x_p^1 E; ...; x_p^N E] + E_pos: N + 1 rows with the class token."""
    N = num_patches(H, W, P)
    return N + 1 if cls_token else N


def patch_dim(P, C=3):
    """Each flattened patch lives in R^{P^2 * C}."""
    return P ** 2 * C
