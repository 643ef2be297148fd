"""Blind round 13 (b13_02, issue 38): a Keras/TF-style LayerNormalization whose epsilon floors the
variance, and a copy-paste slip in vit_forward's final norm.

Mistakes:
1. layer_norm: `1 / np.sqrt(np.maximum(variance, eps))` -- eps as a floor on the variance, not
   added to it (right: sqrt(var + eps)). Shows when a token's variance is near or below eps.
2. vit_forward: the final layer_norm gets params["ln_g"] as beta (right: params["ln_b"]).

Grader: the vit_forward slip is named (op:parameter:vit_forward:ln_b-as-ln_g). The layer_norm
mistake is observed on "eps inside the square root" ("returns the expected values times 1.183,
everywhere: one scale factor is off"), and on the hidden random check a WRONG hint is given:
"In `layer_norm`, eps `eps` is left out of `var + eps`." (op:term:layer_norm:drop-eps). The code
does not leave eps out; it uses max(var, eps). On every case the grader draws (var > eps) the
output equals "eps left out", so the symptom matches but the stated cause is false. It is
recorded in EXPECT below only because the test cannot pass otherwise (a wrong hint, issue 38).
Since choices.epsilon_as_floor: the floor is named (the wrong 'eps left out' is gone: the floor
reproduces the visible check's case too, where the variance is about eps).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:floor:layer_norm:eps-as-floor',
          'vit-forward': 'op:parameter:vit_forward:ln_b-as-ln_g'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise the last axis, Keras style: variance clamped at epsilon for stability."""
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(np.maximum(variance, eps))
    return (x - mean) * inv * gamma + beta


def vit_forward(image, params):
    """Logits of one image: embed, blocks, final norm, [CLS] through the head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_g"])
    return x[0] @ params["W_head"] + params["b_head"]
