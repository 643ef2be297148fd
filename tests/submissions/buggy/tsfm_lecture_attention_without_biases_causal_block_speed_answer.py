"""Blind round 31 (b31_15, issue 38): andrescastillovega/TSFM_lecture_3_transformers,
transformer.py (qkv_projection without biases, multi_head_attention(q, k, v, unmasked),
block_forward calling it with unmasked=False; nested in self_attention and encoder_block).

Mistakes:
1. self_attention: the projections have no biases, `x @ W_Q` etc. and `out @ Wo`: bq, bv and
   bo are ignored (bk alone changes nothing after the softmax).
2. encoder_block: the attention is called with causal=True, after the source's block_forward
   `unmasked=False`: a GPT mask inside the ViT encoder.
3. ANSWERS["causal_mask"] = "speed"; the right answer is "bidirectional".

Grader: at blind time (fbf6cc7) and now, named: "In `self_attention` (in each of its 4 calls of
`linear`), the bias `b` is left out of `x @ W + b`" on no-causal-mask and multi-head-attention
(in the reference's terms: the file calls no `linear`; the cause is right); "Your block's
attention uses a causal mask" (encoder_causal) on encoder-block (the grader's self_attention
standing in); the "speed" option's feedback on no-causal-mask. vit-checkpoint observes the
broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'causal_mask:speed',
          'multi-head-attention': 'op:term:self_attention/linear*:drop-b',
          'encoder-block': 'encoder_causal'}


def self_attention(x, p, heads, causal=False):
    """qkv_projection + multi_head_attention + W_O, heads split from the projections."""

    def qkv_projection(x, W_Q, W_K, W_V):
        return x @ W_Q, x @ W_K, x @ W_V

    def multi_head_attention(q, k, v, unmasked=True):
        scale = 1.0 / np.sqrt(q.shape[-1])
        if unmasked:
            attn = softmax(q @ np.swapaxes(k, -2, -1) * scale)
        else:
            attn_scores = q @ np.swapaxes(k, -2, -1)
            mask = np.tril(np.ones((q.shape[-2], q.shape[-2])), k=0).astype(bool)
            attn_scores_masked = np.where(mask, attn_scores, -np.inf)
            attn = softmax(attn_scores_masked * scale)
        return attn @ v

    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q, k, v = qkv_projection(x, p["Wq"], p["Wk"], p["Wv"])
    q, k, v = (t.reshape(T, heads, d_h).transpose(1, 0, 2) for t in (q, k, v))
    out = multi_head_attention(q, k, v, unmasked=not causal)
    out = out.transpose(1, 0, 2).reshape(T, d)
    return out @ p["Wo"]


def encoder_block(x, p, heads):
    """block_forward, with the LayerNorms in front of the sublayers (pre-LN) and GELU in the MLP."""

    def feed_forward_network(h):
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    attn_o = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads, causal=True)
    x = x + attn_o
    ff = feed_forward_network(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x + ff


ANSWERS["causal_mask"] = "speed"
