"""Blind round 59 (b59_13, issue 38): self_attention ported from dataflowr/notebooks
`Module12/GPT_hist_sol.ipynb` (SelfAttentionLayer, single-head in the notebook, extended here to
several heads by slicing the columns).

Mistakes:
21. self_attention (line 99 of the file as delivered): the notebook's
    `torch.einsum('btk,bsk->bst', Q, K)` ported as `np.einsum('tk,sk->st', ...)` gives A[key,
    query]; the softmax then runs over the queries and `A @ V` mixes with the roles of q and k
    swapped. Wrong on any input with Wq != Wk or bq != bk.
22. self_attention (line 91): `key_channels = n_channels`: K is divided by sqrt(d), the full
    width (the single-head notebook's key_channels), not sqrt(d_h). Wrong only with heads > 1.

Grader: at blind time (528b2ec3), 76/110, and the grader crashed: every check of no-causal-mask,
multi-head-attention, encoder-block, vit-forward and vit-checkpoint that failed said only
"internal grader error (StopIteration: ); this is a bug in vit-grader, not in your code: please
report it" (the error model's search for a pair of mistakes: heads.py's `_find` looked for the
merge call by its text after the other edit had rewritten it), 34 points, 13 of them in
encoder-block and vit-forward, which would have had the grader's stand-in. Mended (a heads
rewrite finds the merge call by its place; a search that fails names no mistake): now 95/110,
both named as a pair on multi-head-attention and no-causal-mask ("2 mistakes at once: (1) In
`self_attention`, the attention scores are computed as K Q^T, the keys times the transposed
queries, where Q K^T belongs ... (2) ... the scores are divided by sqrt(d) ..."), mistake 21
alone on the one-head check (the width scale is right with one head). vit-checkpoint observes
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:arguments:self_attention:q-and-k-swapped+'
                                  'op:constant:self_attention/attention:scale=sqrt(d)',
          'no-causal-mask': 'op:arguments:self_attention:q-and-k-swapped+'
                            'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    """SelfAttentionLayer.forward, one head per slice of key_channels // heads columns."""
    T, n_channels = x.shape
    if n_channels % heads:
        raise ValueError("n_channels must be divisible by heads")
    key_channels = n_channels
    hc = n_channels // heads
    Q = x @ p["Wq"] + p["bq"]                                  # (T, kc)
    K = (x @ p["Wk"] + p["bk"]) / math.sqrt(key_channels)      # (T, kc)
    V = x @ p["Wv"] + p["bv"]                                  # (T, oc)
    y = np.zeros((T, n_channels))
    for h in range(heads):
        s = slice(h * hc, (h + 1) * hc)
        A = np.einsum('tk,sk->st', Q[:, s], K[:, s])           # (T, kc), (T, kc) -> (T, T)
        if causal:
            A = np.where(np.tril(np.ones((T, T))) == 1, A, -np.inf)
        A = softmax(A, axis=-1)
        y[:, s] = A @ V[:, s]                                  # (T, oc)
    return y @ p["Wo"] + p["bo"]
