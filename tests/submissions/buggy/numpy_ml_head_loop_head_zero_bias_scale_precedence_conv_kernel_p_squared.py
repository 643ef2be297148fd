"""Blind round 15 (b15_03, issue 38): attention as a loop over heads, after numpy-ml's
multi-head attention and d2l's per-head formulation; conv_equivalent from a course notebook.

Mistakes:
1. self_attention slices each head's weight columns h*d_h:(h+1)*d_h but always the biases
   [:d_h], so every head uses head 0's part of bq, bk and bv (shows with 2+ heads).
2. self_attention's scale is written `1 / d_h ** 1/2`, read as (1 / d_h) / 2 = 1/(2 d_h), instead
   of 1/sqrt(d_h).
3. conv_equivalent returns (P * P, P) (the kernel as the patch area) instead of (P, P).

Grader: at blind time and now, the attention mistakes get only "returns the expected values only
in 1 of 4 rows (row 0)" on the causal checks (some_rows_wrong) and expected/got in
multi-head-attention; conv_equivalent gets the kernel-stride checklist. Nothing named.
Since the eleventh session conv_equivalent's (P * P, P) is named (a side as its area).
Since session 16 both attention mistakes are named together (op:bias_sliced: head 0's bias for
every head, with op:half_power: `d_h ** 1/2`; one head: the scale alone), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:tuple_parts:conv_equivalent:part-1-area',
          'no-causal-mask': 'op:bias_sliced:self_attention:biases-head-0+op:half_power:self_attention/attention:sqrt-as-half-power-unbracketed',
          'multi-head-attention': 'op:bias_sliced:self_attention:biases-head-0+op:half_power:self_attention/attention:sqrt-as-half-power-unbracketed'}


def conv_equivalent(P):
    """(kernel_size, stride): the kernel covers the patch, P*P pixels; it steps one patch."""
    return (P * P, P)


def self_attention(x, p, heads, causal=False):
    """Multi-head attention as a loop over heads (numpy-ml MultiHeadedAttentionNode / d2l 11.5)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        q = x @ p["Wq"][:, cols] + p["bq"][:d_h]
        k = x @ p["Wk"][:, cols] + p["bk"][:d_h]
        v = x @ p["Wv"][:, cols] + p["bv"][:d_h]
        scores = q @ k.T * (1 / d_h ** 1/2)
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        outs.append(softmax(scores, axis=-1) @ v)
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
