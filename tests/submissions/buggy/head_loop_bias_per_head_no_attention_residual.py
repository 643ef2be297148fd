"""Blind round 5 (b5_15, issue 38): self_attention as a loop over heads with the output projection
applied per head (Wo split into row blocks and the results summed, as in "attention from scratch"
posts), encoder_block from a lecture slide read quickly.

Mistakes:
1. self_attention: the output bias bo is added inside the head loop, so it is added heads
   times. Right with one head; shows only with several heads.
2. encoder_block: no residual around the attention sub-layer:
   x = self_attention(layer_norm(x)); the MLP residual is right. Shows on every input.

Grader: The residual is named; the bias per head is observed (right with one head), not named.
Since session 15: its no-causal-mask and multi-head-attention mistakes are observed
(only_one_head), not named, so in unnamed/.
Since session 16 the bias per head is named (op:bias_per_head: `bo` added `heads` times), so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': "op:bias_per_head:self_attention:p['bo']-per-heads",
          'multi-head-attention': "op:bias_per_head:self_attention:p['bo']-per-heads",
          'encoder-block': 'encoder_no_attention_residual'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention, one head at a time."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, p["Wo"].shape[1]))
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = Q[:, cols] @ K[:, cols].T / np.sqrt(d_h)
        if causal:
            scores[np.triu_indices(T, k=1)] = -np.inf
        head = softmax(scores, axis=-1) @ V[:, cols]
        out += head @ p["Wo"][cols, :] + p["bo"]
    return out


def encoder_block(x, p, heads):
    """Pre-norm block: attention then MLP."""
    x = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
