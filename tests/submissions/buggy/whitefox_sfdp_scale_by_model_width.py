"""Blind round 54 (b54_08, issue 38): self_attention ported from ise-uiuc/WhiteFox
`starcoder-generated/torch-inductor-generated/step27-3shot/sfdp=4/sfdp=4_2.py` (`qk = query @
key.transpose(-2, -1) / math.sqrt(64)`, 64 being the model width), the per-head split kept, an
additive `np.triu(-inf, k=1)` mask when causal.

Mistakes:
1. Scores are scaled by 1/sqrt(d) (the model width) instead of 1/sqrt(d_h). Shows only with
   heads > 1 (heads=2 and 4, causal or not: outputs differ; heads=1 matches, d_h = d). Causal rows
   with a single visible token (row 0) coincide. encoder_block and vit_forward with heads > 1
   differ.

Grader: at blind time (5f4a3d53) and now, named: on multi-head-attention ("You scaled by 1/sqrt(d),
the model width. Each head's dot products are over d_h = d // heads numbers: scale by 1/sqrt(d_h).")
and on no-causal-mask ("In `self_attention` (where each head's attention weights are computed and
applied to its values), the scores are divided by sqrt(d) (at your line `qk = query @
key.transpose(0, 2, 1) / math.sqrt(d)`), the model width, instead of sqrt(d_h) =
`math.sqrt(q.shape[-1])` (d_h = d // heads)."); vit-checkpoint observes self_attention. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d): query/key/value projections, per-head scaled
    dot products, optional additive mask, softmax, weighted values, output projection."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    n_head = heads
    query = x @ p["Wq"] + p["bq"]
    key = x @ p["Wk"] + p["bk"]
    value = x @ p["Wv"] + p["bv"]
    query = query.reshape(T, n_head, d // n_head).transpose(1, 0, 2)
    key = key.reshape(T, n_head, d // n_head).transpose(1, 0, 2)
    value = value.reshape(T, n_head, d // n_head).transpose(1, 0, 2)
    qk = query @ key.transpose(0, 2, 1) / math.sqrt(d)
    if causal:
        attn_mask = np.triu(np.full((T, T), -np.inf), k=1)
        qk = qk + attn_mask
    attn_weight = softmax(qk, axis=-1)
    attn_out = attn_weight @ value
    attn_out = attn_out.transpose(1, 0, 2).reshape(T, d)
    return attn_out @ p["Wo"] + p["bo"]
