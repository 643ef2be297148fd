"""Blind round 67 (b67_06, issue 38): self_attention ported from
uselesstechjunks/toplynx `docs/source/code/code/mha.py`. The student's top-level `mha` is nested
in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
9. self_attention (lines 142 and 165 of the file as delivered): the einsum logits
   'htk,hmk->htm' are not divided by sqrt(d_h), in `mha` and in the causal branch alike. Wrong on
   any input.

Grader: at blind time (d3fd340b) and now, 95/110, named on multi-head-attention and
no-causal-mask ("Your values are those of attention whose scores come out unscaled on these
calls: divide q k^T by sqrt(d_h)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_no_scale',
          'no-causal-mask': 'attention_no_scale'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention with per-head weight tensors (einsum style)."""
    def mha(q, K, V):
        """q: [h,t,k], K: [h,m,k], V: [h,m,v] -> o: [h,t,v]"""
        logits = np.einsum('htk,hmk->htm', q, K)
        weights = softmax(logits, axis=-1)
        o = np.einsum('htm,hmv->htv', weights, V)
        return o

    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    h, k = heads, d // heads
    # the course gives (d, d) matrices; cut them into per-head tensors
    Wq = p["Wq"].reshape(d, h, k).transpose(1, 0, 2)   # [h,d,k]
    Wk = p["Wk"].reshape(d, h, k).transpose(1, 0, 2)   # [h,d,k]
    Wv = p["Wv"].reshape(d, h, k).transpose(1, 0, 2)   # [h,d,v]
    Wo = p["Wo"].reshape(h, k, d)                      # [h,v,d]
    q = np.einsum('td,hdk->htk', x, Wq) + p["bq"].reshape(h, 1, k)
    K = np.einsum('md,hdk->hmk', x, Wk) + p["bk"].reshape(h, 1, k)
    V = np.einsum('md,hdv->hmv', x, Wv) + p["bv"].reshape(h, 1, k)
    if causal:
        # GPT-style: token t may only look at tokens m <= t
        logits_mask = np.triu(np.full((T, T), -np.inf), 1)
        logits = np.einsum('htk,hmk->htm', q, K) + logits_mask
        o = np.einsum('htm,hmv->htv', softmax(logits, axis=-1), V)
    else:
        o = mha(q, K, V)
    y = np.einsum('htv,hvd->td', o, Wo)
    return y + p["bo"]
