"""Blind round 21 (b21_15, issue 38): patchify and conv_patch_embed ported from Tenstorrent's
TT-NN ViT (tt-metal models/demos/vit: `ttnn.from_torch(..., dtype=ttnn.bfloat16)` on every
activation, ttnn.linear, ttnn.fold for the patch embedding on an (H, W, C) image), numpy's
float16 standing in for bfloat16. The student's top-level helpers `_from_torch` and `_fold`
(patchify) and `_linear` (conv_patch_embed) are nested in the functions that use them here: the
builder replaces only the solution's own definitions.

Mistakes:
1. patchify casts the patches to half precision (`astype(np.float16)`, TT-NN's bfloat16
   activations): every value downstream carries ~1e-3 relative rounding.
2. conv_patch_embed unpacks `H, W, C = image.shape` with no 2-D case (TT-NN's fold expects a
   channel axis): a 2-D (one channel) image raises instead of being read as C = 1.

Grader: at blind time and now, both named: the image cast to float16 (the hint says "first"; this
code casts after the fold, the same values), and a 2-D image read with no channel axis. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:computed_in:patchify:image-as-float16',
          'kernel-stride': 'op:not_promoted:conv_patch_embed:image-2d-not-promoted'}


def patchify(image, P):
    def _from_torch(x, dtype=np.float16):
        return np.asarray(x).astype(dtype)

    def _fold(x, P):
        H, W, C = x.shape
        return x.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4).reshape(-1, P * P * C)

    x = _as_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    return _from_torch(_fold(x, P))


def conv_patch_embed(image, K, b, stride):
    def _linear(x, w, b):
        return np.matmul(x, w) + b

    image = np.asarray(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than image ({H}, {W})")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    cols = np.empty((out_h * out_w, k * k * C), dtype=np.result_type(image, np.float64))
    n = 0
    for i in range(out_h):
        for j in range(out_w):
            cols[n] = image[i * stride:i * stride + k, j * stride:j * stride + k, :].reshape(-1)
            n += 1
    out = _linear(cols, K.reshape(k * k * C, -1), b)
    return out.reshape(out_h, out_w, -1)
