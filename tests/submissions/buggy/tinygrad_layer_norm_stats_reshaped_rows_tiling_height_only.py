"""Blind round 17 (b17_03, issue 38): layer_norm and num_patches ported in the style of tinygrad
(tensor.py's `layernorm` with `.rsqrt()`, examples/vit.py).

Mistakes:
1. layer_norm reshapes the reduced mean and variance with `.reshape(x.shape[0], 1)`, written for a
   (T, d) token matrix, instead of keeping the reduced axis (keepdims): right on 2-D input, a
   ValueError on (B, T, d) input and on a single 1-D token.
2. num_patches checks only `H % P`: a width that P does not tile returns a floored count instead
   of raising ValueError.

Grader: at blind time and now, both are observations: the width check is told exactly ("refuses
sizes whose height P does not tile, not those whose width alone it does not: test W % P too",
refuses_height_only); the reshape is observed only ("right for inputs of two axes (T, d), wrong for
one with leading axes", only_2d_inputs), the reshape itself not named. Not every mistake named.
Since the port (the same session) the reshape is named (keepdims written as `.reshape(x.shape[0], 1)`).
Since session 16 (tiling): the height-only test is named (tiling.tiling's `height-only`): every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only', 'layer-norm': 'op:kept_by_index:layer_norm:mean.keepdims-as-rows+op:kept_by_index:layer_norm:var.keepdims-as-rows'}


def num_patches(H, W, P):
    """tinygrad examples/vit.py style: the image side must be a multiple of the patch size."""
    if H % P != 0:
        raise ValueError(f"image height {H} not divisible by patch size {P}")
    return (H // P) * (W // P)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Tensor.layernorm: y = x - mean; y * rsqrt(mean(y*y) + eps), then the affine."""
    # Tensor.layernorm: y = (x - x.mean(axis, keepdim=True)); y.mul((y*y).mean(axis, keepdim=True).add(eps).rsqrt())
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1).reshape(x.shape[0], 1)
    y = x - mean
    var = (y * y).mean(axis=-1).reshape(x.shape[0], 1)
    return y * (1.0 / np.sqrt(var + eps)) * gamma + beta
