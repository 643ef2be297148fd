"""Blind round 62 (b62_15, issue 38): num_tokens and layer_norm ported from keras-team/keras-io
`examples/vision/image_classification_with_vision_transformer.py` (PatchEncoder, which has no
[CLS]) and keras-team/keras `keras/src/layers/normalization/layer_normalization.py`
(LayerNormalization.call with `ops.moments`' one-pass variance).

Mistakes:
23. num_tokens (line 16 of the file as delivered): returns the patch count and ignores
    `cls_token`. Wrong whenever cls_token=True (the default): 196 instead of 197 for 224 / 16.
24. layer_norm (line 90): the one-pass variance `mean(x**2) - mean**2`, which cancels
    catastrophically. Wrong only for values far from zero (rows near 1e8 give outputs of
    hundreds, or NaN); right for ordinary inputs.

Grader: at blind time (90d6c97e) and now, 103/110, both named. Mistake 23 on token-count's two
checks ("[CLS] is a token too: with cls_token=True the transformer sees N + 1 rows (197 for
224/16)." / "[CLS] adds one token when cls_token is true."); attention-cost, which runs
num_tokens, observes it. Mistake 24 on layer-norm's shift property ("Your `layer_norm` takes the
variance in one pass, mean(x**2) - mean(x)**2 ... Subtract the mean first ..."). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_forgotten',
          'layer-norm': 'layer_norm_one_pass_variance'}


def num_tokens(H, W, P, cls_token=True):
    return num_patches(H, W, P)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNormalization.call with ops.moments."""
    inputs = np.asarray(x, dtype=float)
    mean = np.mean(inputs, axis=-1, keepdims=True)
    variance = np.mean(np.square(inputs), axis=-1, keepdims=True) - np.square(mean)
    inv = 1.0 / np.sqrt(variance + eps)
    inv = inv * gamma
    res = -mean * inv + beta
    return inputs * inv + res
