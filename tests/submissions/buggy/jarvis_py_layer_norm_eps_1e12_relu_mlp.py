"""Blind round 77 (b77_13, issue 38): layer_norm and encoder_block ported from 1554cN3wt0n/jarvis-py
`src/llm/utils.py` (picoGPT-style gelu, layer_norm, ffn and mha with np.split).

Mistakes:
1. layer_norm (line 19 of the file as delivered): the default `eps=1e-12` (the source's): shows
   on low-variance rows; an explicit eps is honoured.
2. encoder_block (line 123, via `ffn`, line 29): `ffn`'s default `act_fn=relu` is used, so the
   MLP uses ReLU, not GELU. Wrong on every input (the file's `gelu` is right but never used).
The delivered file's top-level helpers `ffn`, `linear` and `relu` are nested in encoder_block
here.

Grader: at blind time (15b4065f) and now, 98/110. Mistake 1 named on layer-norm ("eps is
1e-12 (`eps=1e-12` in your code)"), mistake 2 on encoder-block ("The MLP uses ReLU; ViT's MLP
uses GELU"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'encoder-block': 'encoder_relu'}


def layer_norm(x, gamma, beta, eps=1e-12):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta


def encoder_block(x, p, heads):
    def relu(x):
        return np.maximum(0, x)

    def linear(x, w, b):
        return x @ w + b

    def ffn(x, c_fc, c_proj, act_fn=relu):
        return linear(act_fn(linear(x, **c_fc)), **c_proj)

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]), {"w": p["W1"], "b": p["b1"]}, {"w": p["W2"], "b": p["b2"]})
    return x
