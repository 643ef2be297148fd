"""Blind round 75 (b75_07, issue 38): patchify and layer_norm ported from
julestalloen/pytorch-hebbian `pytorch_hebbian/utils/image.py` (`extract_image_patches`:
`unfold(2, ...).unfold(3, ...)`, `permute`, `view(-1, kh, kw)`), emulated with a numpy `_unfold`.

Mistakes:
1. patchify via extract_image_patches (line 40 of the file as delivered): the permute puts the
   grid as (nw, nh, ...), so the patches are numbered down the columns first. Wrong whenever the
   patch grid has at least 2 rows and 2 columns.
2. layer_norm (lines 90-91): mean and variance over `axis=1` instead of the last axis: right on
   (T, d), wrong on batched (B, T, d), AxisError on a 1-D vector.
The delivered file's top-level helpers `_unfold` and `extract_image_patches` are nested in
patchify here.

Grader: at blind time (db1f63a6) and now, 95/110. Mistake 1 named on patchify ("Your
patches are numbered down the columns first ..."), mistake 2 on layer-norm ("In `layer_norm`,
... `np.mean(x, axis=-1, keepdims=True)` taken over axis 1 ..." and `np.var`). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def patchify(image, P):
    def _unfold(x, axis, size, step):
        """numpy version of torch.Tensor.unfold: windows along `axis` go to a new last axis."""
        n = (x.shape[axis] - size) // step + 1
        windows = [np.take(x, range(i * step, i * step + size), axis=axis) for i in range(n)]
        return np.moveaxis(np.stack(windows, axis=axis), axis + 1, -1)

    def extract_image_patches(x, kernel_size, stride=(1, 1)):
        # x: (c, h, w)
        # Extract patches
        patches = _unfold(_unfold(x, 1, kernel_size[0], stride[0]), 2, kernel_size[1], stride[1])
        # patches: (c, nh, nw, kh, kw)
        patches = patches.transpose(2, 1, 3, 4, 0)  # (nw, nh, kh, kw, c)
        return patches.reshape(-1, kernel_size[0], kernel_size[1], x.shape[0])
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = image.shape
    num_patches(H, W, P)
    patches = extract_image_patches(image.transpose(2, 0, 1), (P, P), stride=(P, P))
    return patches.reshape(len(patches), -1)


def layer_norm(x, gamma, beta, eps=1e-6):
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * gamma + beta
