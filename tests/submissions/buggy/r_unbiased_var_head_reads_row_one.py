"""Blind round 25 (b25_11, issue 38): layer_norm and vit_forward ported from an R course notebook:
the normalisation written with R's `var()` (which divides by n - 1), and the classifier head
reading `x[1, ]`, R's first row.

Mistakes:
1. layer_norm: `x.var(axis=-1, keepdims=True, ddof=1)`, the unbiased variance.
2. vit_forward: `cls = x[1]`, R's index of the first row: numpy's second row, the first patch.

Grader: at blind time and now, both named: the unbiased variance (ddof=1) on layer-norm, and
`x[0]` reading index 1 on vit-forward; vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased',
          'vit-forward': 'op:index:vit_forward:x[1]'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean(x)) / sqrt(var(x) + eps), row by row, as R computes it."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def vit_forward(image, params):
    """embed, blocks, final norm, head on the class row."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls = x[1]
    return cls @ params["W_head"] + params["b_head"]
