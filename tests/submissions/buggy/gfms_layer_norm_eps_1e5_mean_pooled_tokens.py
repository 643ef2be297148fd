"""Blind round 76 (b76_06, issue 38): layer_norm and vit_forward ported from
octopifriends/gfms-from-scratch.github.io `geogfm/modules/attention/multihead_attention.py`,
`geogfm/modules/blocks/transformer_block.py` and `geogfm/tasks/classification.py`.

Mistakes:
1. layer_norm (line 94 of the file as delivered): the default `eps=1e-5` (torch's nn.LayerNorm)
   instead of 1e-6. Clearly wrong on rows of small variance, about 1e-5 relative on ordinary
   rows; right when eps is passed.
2. vit_forward (line 145): `tokens.mean(axis=0)`, the mean over every token (classification.py's
   pooling) instead of the [CLS] row. Wrong on every image.

Grader: at blind time (fe8b70f1) and now, 95/110. Mistake 1 named on layer-norm ("In
`layer_norm`, eps is 1e-05; the student API's is 1e-06."), mistake 2 on vit-forward ("You
averaged every token. This model's head reads the [CLS] row only ..."). Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def vit_forward(image, params):
    tokens = embed_image(image, params)
    for block in params["blocks"]:
        tokens = encoder_block(tokens, block, params["heads"])
    tokens = layer_norm(tokens, params["ln_g"], params["ln_b"])
    # tokens: (N, D). Use mean pooling over tokens.
    x = tokens.mean(axis=0)
    return x @ params["W_head"] + params["b_head"]
