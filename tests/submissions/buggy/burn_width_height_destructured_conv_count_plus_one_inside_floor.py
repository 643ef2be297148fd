"""Blind round 21 (b21_02, issue 38): patchify and conv_patch_embed ported from tracel-ai/burn
(Rust; the ImagePatchEmbedding building block of the burn book, `grid_sizes(H, W)`, `dims()`
destructured into arrays, `swap_dims`, Config::new(..).init()-like helpers). The student's
top-level helpers `ImagePatchEmbeddingConfig` and `_swap_dims` are nested in patchify here: the
builder replaces only the solution's own definitions.

Mistakes:
1. patchify destructures the image dims as `[w, h, c] = x.shape` (the order of NCHW's
   `[_, _, h, w]` misremembered), so the grid reshape is (W/P, P, H/P, P, C) on an (H, W, C)
   array: right for square images, scrambled patches on non-square ones.
2. conv_patch_embed computes the output size as `(size - k + 1) // stride` (the +1 moved inside
   the floor division) instead of `(size - k) // stride + 1`: the last window is lost unless
   (size - k) % stride == stride - 1 (e.g. whenever kernel = stride = P).

Grader: at blind time the sizes were named and the window count was not (two kernel-stride checks
with no hint line, only the shapes; the K = W_e check the generic checklist). Now both named:
`H // P` and `W // P` given the other way round, and the count of window positions with the +1
inside the floor division (windows.count_floored); the K = W_e check still gives its checklist.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'kernel-stride': 'op:window_count_floored:conv_patch_embed:windows-count-floored'}


def patchify(image, P):
    class ImagePatchEmbeddingConfig:
        def __init__(self, patch):
            self.patch = patch

        def grid_sizes(self, h, w):
            p = self.patch
            if p <= 0 or h % p or w % p:
                raise ValueError(f"patch {p} does not tile [{h}, {w}]")
            return [h // p, w // p]

    def _swap_dims(x, a, b):
        return np.swapaxes(x, a, b)

    x = _as_hwc(image)
    [w, h, c] = x.shape
    [h_p, w_p] = ImagePatchEmbeddingConfig(P).grid_sizes(h, w)
    x = x.reshape(h_p, P, w_p, P, c)
    x = _swap_dims(x, 1, 2)  # [h_p, w_p, P, P, c]
    return x.reshape(h_p * w_p, P * P * c)


def conv_patch_embed(image, K, b, stride):
    x = _as_hwc(image)
    [h, w, c] = x.shape
    k = K.shape[0]
    if k > h or k > w:
        raise ValueError(f"kernel {k} does not fit [{h}, {w}]")
    out_h = (h - k + 1) // stride
    out_w = (w - k + 1) // stride
    weight = K.reshape(-1, K.shape[-1])
    rows = []
    for i in range(out_h):
        row = []
        for j in range(out_w):
            win = x[i * stride:i * stride + k, j * stride:j * stride + k, :]
            row.append(win.reshape(-1) @ weight)
        rows.append(row)
    out = np.array(rows, dtype=float).reshape(out_h, out_w, K.shape[-1])
    return out + b
