"""Blind round 12 (b12_01, issue 38): Source style ported: Hugging Face transformers Falcon
(modeling_falcon.FalconAttention with multi_query=True) / the PaLM multi-query attention
(Shazeer 2019): every query head attends with one shared key head and one shared value head.

Mistake 1 (self_attention): the student ported the multi-query layout, so the keys and values
of every head are the first head's: k_h = (x @ Wk + bk)[:, 0:d_h] and v_h = (x @ Wv + bv)[:, 0:d_h]
for all h (the rest of Wk/Wv's columns are never used). Right: head h uses columns
h*d_h:(h+1)*d_h of the key and value projections too. Shows only with several heads
(heads=1 is exactly right); with causal=True too.

Grader: observed only (only_one_head: "Your `self_attention` is right with one head, wrong with
heads=2: look at each step that depends on the number of heads"); nothing named the shared
key/value head until session 13, when blind round 24's CoCa port brought the operator
chunks.chunk_shared (every chunk of a reshape's (count, X // count) cut given the first
chunk's values): now named at the keys' and the values' head split. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': ('op:chunk_shared:self_attention/split_heads.2:heads-chunk-0-shared'
                             '+op:chunk_shared:self_attention/split_heads.3:heads-chunk-0-shared'),
          'multi-head-attention': ('op:chunk_shared:self_attention/split_heads.2:heads-chunk-0-shared'
                                   '+op:chunk_shared:self_attention/split_heads.3:heads-chunk-0-shared')}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    head_dim = d // heads
    query = x @ p["Wq"] + p["bq"]
    key = x @ p["Wk"] + p["bk"]
    value = x @ p["Wv"] + p["bv"]
    # multi-query: (T, heads, head_dim) queries, one shared key/value head (T, 1, head_dim)
    query = query.reshape(T, heads, head_dim).transpose(1, 0, 2)
    key = key[:, :head_dim][None]      # broadcast over the query heads
    value = value[:, :head_dim][None]
    scores = query @ key.transpose(0, 2, 1) / math.sqrt(head_dim)
    if causal:
        mask = np.triu(np.ones((T, T), dtype=bool), k=1)
        scores = np.where(mask, -np.inf, scores)
    attn = softmax(scores, axis=-1)
    context = attn @ value                          # (heads, T, head_dim)
    context = context.transpose(1, 0, 2).reshape(T, d)
    return context @ p["Wo"] + p["bo"]
