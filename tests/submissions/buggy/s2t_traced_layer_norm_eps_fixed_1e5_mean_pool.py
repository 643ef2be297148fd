"""Blind round 82 (b82_10, issue 38): layer_norm and vit_forward ported from
jms90h5/s2t_toolkit `.../final.pt/code/__torch__/torch/nn/modules/normalization.py` (a traced
torch LayerNorm).

Mistakes:
1. layer_norm (lines 82 and 86 of the file as delivered): the traced module's constant
   `1.0000000000000001e-05` inside the square root (and as the default), so the `eps` argument is
   ignored: wrong on small-variance rows and whenever a caller passes eps.
2. vit_forward (line 135): `x.mean(axis=0)`, the mean over all tokens instead of the [CLS] row:
   wrong on every image.

Grader: at blind time (ee59f1b1) and now, 95/110. Mistake 1 named on layer-norm ("`eps` is fixed at
1e-05 ... whatever is given: use the `eps` the caller passes (its default is 1e-06)"); mistake 2
named on vit-forward ("You averaged every token ... [CLS] row only: x[0]"). Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05', 'vit-forward': 'vit_mean_pool_all_tokens'}


def layer_norm(x, gamma, beta, eps=1.0000000000000001e-05):
    normalized_shape = (x.shape[-1],)  # noqa: F841  (the traced module's, never read)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1.0000000000000001e-05) * gamma + beta


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.mean(axis=0)
    return x @ params["W_head"] + params["b_head"]
