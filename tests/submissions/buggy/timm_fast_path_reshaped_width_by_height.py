"""Blind round 18 (b18_12, issue 38): conv_patch_embed in the style of timm's PatchEmbed (a
fast path for non-overlapping windows, a general strided path by sliding_window_view).

Mistake:
1. The fast path (stride == k, k tiles the image) returns `out.reshape(W // k, H // k, d)` instead
   of (H // k, W // k, d): right on square images and on the general path; a non-square image with
   stride == k gets shape (W', H', d), the tokens in the wrong places.
The student's `_hwc` (a float cast and the solution's checks) is `_as_hwc` with a float cast here:
the builder replaces only the solution's own definitions.

Grader: at blind time, no hint: only the diff's "same number of values, different shape" on
kernel-stride's call checks. Since session 13 observed: "the expected values in the expected
order, but shaped (4, 3, 4) where (3, 4, 4) belongs: only the sizes of a reshape differ"; the
(W', H') reshape was not named. Now named on both checks (ports.fast_path_reshape: where the
windows tile the image, a fast path whose result is reshaped to (W', H', d), cs231n's
max_pool_forward_fast style; said only where a non-square output is right, the general path).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:fast_path_reshape:conv_patch_embed:windows-fast-path-sides-swapped'}


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(_as_hwc(image), dtype=float)
    H, W, C = x.shape
    k = K.shape[0]
    d = K.shape[-1]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than input {H}x{W}")
    weight = K.reshape(k * k * C, d)
    if stride == k and H % k == 0 and W % k == 0:
        # non-overlapping windows: the patch-embedding fast path
        cols = x.reshape(H // k, k, W // k, k, C).transpose(0, 2, 1, 3, 4).reshape(-1, k * k * C)
        out = cols @ weight + b
        return out.reshape(W // k, H // k, d)
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(0, 1))[::stride, ::stride]
    Ho, Wo = win.shape[:2]
    cols = win.transpose(0, 1, 3, 4, 2).reshape(Ho * Wo, k * k * C)
    return (cols @ weight + b).reshape(Ho, Wo, d)
