"""Blind round 20 (b20_09, issue 38): patchify and softmax ported from FluxML (Flux.jl /
Metalhead.jl's ViT and NNlib: Julia's column-major, features-first layout, reshapes written with
order="F" to keep Julia's semantics, `NNlib.softmax(x; dims = 1)`). The student's top-level
helper `_img` is nested in patchify here: the builder replaces only the solution's own
definitions.

Mistakes:
1. patchify flattens each P x P x C block with order="F" (Julia's vec): column-major inside the
   patch, the order (c, p2, p1) read backwards, instead of (p1, p2, c): wrong for every P > 1
   (the patch grid order is right).
2. softmax's default axis is 0, NNlib's `dims = 1` translated literally: wrong when called without
   `axis` on 2-D (or larger) input; self_attention passes its axis.

Grader: at blind time patchify was told "`grid.transpose(0, 2, 4, 3, 1)` puts axes 4 and 1 in each
other's place" (the file's values exactly, but a transpose the file does not have: observed), and
softmax got the checklist "Pass `axis` and keepdims=True ...", the observation "only in 1 of 5
rows (row 0)" and no hint on the overflow check. Now both named: the same transpose, said to be
"the last 3 axes in reverse order, the order a column-major flatten reads them:
`reshape(..., order='F')`, as in Fortran, MATLAB or Julia", and "`axis` defaults to 0" on every
softmax check; vit-checkpoint observes the broken patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:axes_swapped:patchify:transpose-0-2-4-3-1',
          'stable-softmax': 'op:default_flipped:softmax:axis-defaults-0'}


def patchify(image, P):
    def _img(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return x

    x = _img(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    out = []
    for i in range(H // P):            # raster order over the grid
        for j in range(W // P):
            block = x[i * P:(i + 1) * P, j * P:(j + 1) * P, :]
            out.append(np.reshape(block, -1, order="F"))   # vec(block)
    return np.stack(out)


def softmax(x, axis=0):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)
