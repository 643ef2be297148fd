"""Blind round 66 (b66_07, issue 38): self_attention and
vit_forward ported from Kumar0408/LLM_concepts (`src/gpt_blocks/self_attention.py`,
`gpt_model.py`).

Mistakes:
15. self_attention (line 163 of the file as delivered): the mask is built but the `np.where`
    result is thrown away (the source's non-in-place `masked_fill` has no effect either), so
    causal=True gives the unmasked result. Wrong with causal=True only.
16. vit_forward (line 193): the head is `out_head` with bias=False: `b_head` never added.

Grader: at blind time (f4776223), 95/110. Mistake 16 named on vit-forward ("the bias `b` is
left out of `x @ W + b`"); mistake 15 only partly, on no-causal-mask's causal checks ("either no
mask is applied, or its fill is too small to matter ... Fill them with -inf"). Now named whole
(issue 38, session 32): the values are the unmasked attention exactly (kinds/exact.py, the
listed mistake's `exact_hint`), so the hint says "causal=True returns exactly the unmasked
result: no mask reaches the scores", and quotes the student's line (report/discarded.py,
`unassigned_mask`): "`np.where(mask.astype(bool), -np.inf, attn_scores)` on line N returns the
masked scores as a new array that is never used: assign it". No wrong hint.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_ignored',
          'vit-forward': 'op:term:vit_forward/linear:drop-b'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self attention with optional masking (MultiHeadAttention.forward, no dropout)."""
    num_tokens, d_in = x.shape
    d_out = p["Wq"].shape[1]
    if d_out % heads != 0:
        raise ValueError("d_out must be divisible by num_heads")
    head_dim = d_out // heads

    queries = x @ p["Wq"] + p["bq"]
    keys = x @ p["Wk"] + p["bk"]
    values = x @ p["Wv"] + p["bv"]

    # (num_tokens, d_out) -> (num_heads, num_tokens, head_dim)
    queries = queries.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    keys = keys.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)
    values = values.reshape(num_tokens, heads, head_dim).transpose(1, 0, 2)

    attn_scores = queries @ keys.transpose(0, 2, 1)
    if causal:
        mask = np.triu(np.ones((num_tokens, num_tokens)), k=1)
        np.where(mask.astype(bool), -np.inf, attn_scores)   # attn_scores.masked_fill(mask, -inf)

    attn_weights = softmax(attn_scores / head_dim ** 0.5, axis=-1)
    context_vec = attn_weights @ values                      # (num_heads, num_tokens, head_dim)
    context_vec = context_vec.transpose(1, 0, 2).reshape(num_tokens, d_out)
    return context_vec @ p["Wo"] + p["bo"]                   # out_proj


def vit_forward(image, params):
    """Logits (num_classes,): embed, trf_blocks, final_norm, then out_head on the [CLS] row."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = x[0] @ params["W_head"]      # nn.Linear(embed_dim, num_classes, bias=False)
    return logits
