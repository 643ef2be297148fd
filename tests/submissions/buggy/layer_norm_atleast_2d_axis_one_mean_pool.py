"""Blind round 6 (b6_04, issue 38): layer_norm written for (T, d) token matrices with np.atleast_2d
and axis=1 (as in CS231n-style numpy layers), and vit_forward with timm's global_pool='avg' (mean
over tokens).

Mistakes:
1. layer_norm: reduces over axis=1 after np.atleast_2d, then restores the shape. Right for 1-D and
   2-D inputs; wrong only on batched (3-D or more) inputs (B, T, d), where it normalises over T.
2. vit_forward: pools with the mean over all tokens after the final layer_norm (x.mean(0)) instead
   of the [CLS] row. Shows on every input.

Grader: Both are named: layer_norm as one slip at mean and var (axis 1 instead of -1),
vit_forward as the mean over every token.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise each row of a (T, d) matrix (a single token is one row)."""
    shape = np.shape(x)
    x2 = np.atleast_2d(x)
    mu = x2.mean(axis=1, keepdims=True)
    var = ((x2 - mu) ** 2).mean(axis=1, keepdims=True)
    out = (x2 - mu) / np.sqrt(var + eps)
    return (out * gamma + beta).reshape(shape)


def vit_forward(image, params):
    """Logits (num_classes,), pooling as timm's global_pool='avg'."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    pooled = x.mean(axis=0)
    return pooled @ params["W_head"] + params["b_head"]
