"""Blind round 12 (b12_07, issue 38): Source style ported: jaymody/picoGPT (gpt2.py, mha: split q, k, v into
heads with np.split, per-head attention in a list comprehension, np.hstack to merge) and a
Keras-style LayerNormalization rewritten by hand.

Mistake 1 (self_attention): heads are split with np.array_split(..., heads, axis=-1) instead of
picoGPT's np.split, and there is no divisibility check, so heads that do not divide d give
uneven heads and no ValueError (the scale uses d // heads). Right: raise ValueError when
d % heads != 0. Shows only when heads does not divide d; exact otherwise.
Mistake 2 (layer_norm): the shift is added before the gain multiplies:
(x_hat + beta) * gamma instead of x_hat * gamma + beta. Shows whenever beta != 0 and
gamma != 1.

Grader: layer_norm named (choices: beta before gamma); the missing ValueError named
(heads.unchecked_heads: the refusal case's value is the lecture's with the heads cut by
np.array_split, each scaled by sqrt(d // heads)). vit-checkpoint, an end-to-end check, only
observed (the functions that lose points in their own exercises): an integration check's
observation, not in EXPECT. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:shift_first:layer_norm:beta-before-gamma', 'multi-head-attention': 'op:unchecked_heads:self_attention:heads-unchecked-array-split-scale-d//heads'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    x_hat = (x - mean) / np.sqrt(variance + eps)
    return (x_hat + beta) * gamma


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    qs, ks, vs = (np.array_split(t, heads, axis=-1) for t in (q, k, v))
    mask = (1 - np.tri(T)) * -1e10 if causal else np.zeros((T, T))
    outs = []
    for qh, kh, vh in zip(qs, ks, vs):
        w = softmax(qh @ kh.T / np.sqrt(d // heads) + mask)
        outs.append(w @ vh)
    return np.hstack(outs) @ p["Wo"] + p["bo"]
