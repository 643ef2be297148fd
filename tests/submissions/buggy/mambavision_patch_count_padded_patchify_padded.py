"""Blind round 61 (b61_12, issue 38): num_patches and patchify ported from NVlabs/MambaVision
`mambavision/models/mamba_vision.py` (MambaVisionLayer.forward's padding to a multiple of the
window, `pad_r`, `pad_b`, then window_partition). The student's top-level `window_partition` is
nested in patchify here: the builder replaces only the solution's own definitions.

Mistakes:
18. num_patches (lines 9-11 of the file as delivered): pads to a multiple of P and counts
    ceil(H/P) * ceil(W/P) instead of raising ValueError. Wrong only when P does not tile H or W;
    num_tokens inherits it.
19. patchify (lines 42-45): zero-pads the image at the bottom and right instead of raising
    ValueError. Wrong only when P does not tile; linear_patch_embed inherits it.

Grader: at blind time (90d6c97e) and now, 106/110, both named. Mistake 18 on patch-count's two
non-tiling checks ("You rounded up, counting a partial patch at each edge ... raise ValueError
instead of counting."); mistake 19 on patchify's errors and non-tiling checks ("In `patchify`, the
image is zero-padded at the bottom and right to a multiple of `P` before it is cut ... raise
ValueError instead of padding."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count',
          'patchify': 'op:padded:patchify:image-padded-to-tile'}


def num_patches(H, W, P):
    pad_r = (P - W % P) % P
    pad_b = (P - H % P) % P
    Hp, Wp = H + pad_b, W + pad_r
    return (Hp // P) * (Wp // P)


def patchify(image, P):
    def window_partition(x, window_size):
        """x: (H, W, C) -> (num_windows, window_size*window_size*C)"""
        H, W, C = x.shape
        x = x.reshape(H // window_size, window_size, W // window_size, window_size, C)
        windows = x.transpose(0, 2, 1, 3, 4).reshape(-1, window_size * window_size * C)
        return windows

    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("expected a 2-D or 3-D image")
    H, W, _ = x.shape
    pad_r = (P - W % P) % P
    pad_b = (P - H % P) % P
    if pad_r > 0 or pad_b > 0:
        x = np.pad(x, ((0, pad_b), (0, pad_r), (0, 0)))
    return window_partition(x, P)
