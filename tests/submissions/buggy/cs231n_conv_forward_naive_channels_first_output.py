"""Blind round 64 (b64_09, issue 38): conv_patch_embed ported from Clarence-G/learngit
`cs231n/assignment2/conv1.py` (conv_forward_naive, in cs231n's (C, H, W) / (F, C, HH, WW)
layout).

Mistakes:
11. conv_patch_embed (lines 102 and 107 of the file as delivered): `out` computed and returned
    channels first, (d, H', W') instead of (H', W', d): the values are right, the axes in the
    wrong place. Wrong on any input.

Grader: at blind time (0cd43d22) and now, 104/110, named. Mistake 11 on kernel-stride's
kernels-and-strides and random checks ("In `conv_patch_embed`, the result is returned with its
last axis first (channels first: (F, H', W') for (H', W', F), as torch's conv2d lays out its
output) ... Move that axis last, `np.moveaxis(out, 0, -1)`."); its equivalence check gets the
checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-channels-first'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> conv output.

    conv_forward_naive with pad = 0 on one image: x (C, H, W), w (F, C, HH, WW).
    """
    x = _as_hwc(image).transpose(2, 0, 1)          # (C, H, W)
    w = np.transpose(K, (3, 2, 0, 1))               # (F, C, HH, WW)
    F, C, HH, WW = w.shape
    _, H, W = x.shape
    if HH > H or WW > W:
        raise ValueError(f"kernel {HH} is larger than the {H}x{W} image")
    s = stride
    H_new = 1 + (H - HH) // s
    W_new = 1 + (W - WW) // s
    out = np.zeros((F, H_new, W_new))
    for f in range(F):              # fth filter
        for j in range(H_new):
            for k in range(W_new):
                out[f, j, k] = np.sum(x[:, j * s:HH + j * s, k * s:WW + k * s] * w[f]) + b[f]
    return out
