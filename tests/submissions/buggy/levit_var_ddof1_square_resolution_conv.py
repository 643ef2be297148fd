"""Blind round 20 (b20_12, issue 38): layer_norm and conv_patch_embed ported from
facebookresearch/LeViT (levit.py: `resolution = img_size // patch_size` held as one int, the model
assuming square inputs; statistics computed as torch computes them). The student's top-level
helper `_hwc` is nested in conv_patch_embed here: the builder replaces only the solution's own
definitions.

Mistakes:
1. layer_norm's variance is torch.var's default, the unbiased one, `x.var(axis=-1, ddof=1)`,
   instead of the biased one (ddof=0).
2. conv_patch_embed uses one output resolution, (H - k)//stride + 1, for both output sizes
   (LeViT's square `resolution`): wrong (columns cut off, or an error) for non-square images.

Grader: at blind time and now, both named: layer_norm_unbiased and the columns "counted from H"
(op:window_count); kernel-stride's linear-map check gives its checklist, vit-checkpoint observes
the broken layer_norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)     # torch.var(x, -1, keepdim=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def conv_patch_embed(image, K, b, stride):
    def _hwc(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return x

    x = _hwc(image)
    H, W, C = x.shape
    ks = K.shape[0]
    if ks > H or ks > W:
        raise ValueError("kernel larger than input")
    resolution = (H - ks) // stride + 1
    out = np.zeros((resolution, resolution, K.shape[-1]))
    for i in range(resolution):
        for j in range(resolution):
            win = x[i * stride:i * stride + ks, j * stride:j * stride + ks, :]
            out[i, j] = np.einsum("abc,abcd->d", win, K)
    return out + b
