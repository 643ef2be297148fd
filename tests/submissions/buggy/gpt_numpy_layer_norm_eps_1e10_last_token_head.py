"""Blind round 78 (b78_03, issue 38): layer_norm and vit_forward ported from ita9naiwa/gpt-numpy
`model.py` (the GPT-2 numpy inference code: linear / normalize / gelu helpers).

Mistakes:
1. layer_norm (line 100 of the file as delivered, and its helper `normalize`, line 14): the
   default `eps=1e-10` (the GPT-2 numpy code's), not 1e-6: about 1e-6 relative on unit-variance
   rows, clear on low-variance rows; right when the caller passes eps.
2. vit_forward (line 141): `emb[-1]`, the last token (the LM head's habit), feeds the head
   instead of the [CLS] row 0.
The delivered file's top-level helper `normalize` is nested in layer_norm here.

Grader: at blind time (ddfccf96) and now, 97/110. Mistake 1 named on layer-norm ("In
`layer_norm`, eps is 1e-10 (`eps=1e-10` in your code); the student API's is 1e-06."), mistake 2
on vit-forward ("The head reads the last token; [CLS] is row 0." and, on the hidden check, "the
model solution's `x[0]` reads index -1 instead of 0: `x[-1]`", said in the model solution's
name, the student's variable being `emb`). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'vit-forward': 'vit_last_row'}
ALIASES = ('op:index:vit_forward:x[-1]',)


def layer_norm(x, gamma, beta, eps=1e-10):
    def normalize(x, g, b, eps=1e-10):
        mean = x.mean(axis=-1, keepdims=True)
        var = x.var(axis=-1, keepdims=True)
        sqrtd = np.sqrt(eps + var)
        h = (x - mean) / sqrtd
        return h * g + b

    return normalize(x, gamma, beta, eps)


def vit_forward(image, params):
    input_layer = embed_image(image, params)
    for blk in params["blocks"]:
        input_layer = encoder_block(input_layer, blk, params["heads"])
    emb = input_layer.copy()
    # final normalization
    emb = layer_norm(emb, params["ln_g"], params["ln_b"])
    return np.matmul(emb[-1], params["W_head"]) + params["b_head"]
