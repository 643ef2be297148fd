"""Blind round 75 (b75_04, issue 38): embed_image and self_attention ported from
bangbv/AlgorithmInPython `representations/embeddings/cross_attention.py` (single-head torch
attention, `dk = d_model      # one head`, `scores = Q @ K^T / sqrt(dk)`).

Mistakes:
1. self_attention (line 104 of the file as delivered, with line 94 `dk = d_model`): every head's
   scores divided by sqrt(d_model) instead of sqrt(d_h). Right with one head only.
2. embed_image (lines 72-74): positions `pos[1:]` added to the patch tokens and [CLS] prepended
   afterwards, so row 0 never gets `pos[0]`. Wrong whenever pos[0] != 0.

Grader: at blind time (db1f63a6) and now, 91/110. Mistake 1 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h).") and no-causal-mask ("the scores are
divided by sqrt(d) (at your line `scores = Q[:, sl] @ K[:, sl].T / math.sqrt(dk)`), the model width,
instead of sqrt(d_h)"), mistake 2 on cls-and-positions ("You added the positions before prepending
[CLS], so the patches got pos[1:] ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def embed_image(image, params):
    patch_tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])   # (N, d)
    patch_tokens = patch_tokens + params["pos"][1:]                                        # positions of the patches
    cls = params["cls"].reshape(1, -1)                                                     # (1, d)
    return np.concatenate([cls, patch_tokens], axis=0)                                     # (N+1, d)


def self_attention(x, p, heads, causal=False):
    T, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by heads")
    dk = d_model      # one head
    d_h = d_model // heads

    Q = x @ p["Wq"] + p["bq"]                       # (T, d_model)
    K = x @ p["Wk"] + p["bk"]                       # (T, d_model)
    V = x @ p["Wv"] + p["bv"]                       # (T, d_model)

    context = []
    for h in range(heads):
        sl = slice(h * d_h, (h + 1) * d_h)
        scores = Q[:, sl] @ K[:, sl].T / math.sqrt(dk)      # (T, T)
        if causal:
            scores = scores + np.triu(np.full((T, T), -np.inf), k=1)
        weights = softmax(scores, axis=-1)                   # (T, T)
        context.append(weights @ V[:, sl])                   # (T, d_h)
    context = np.concatenate(context, axis=-1)               # (T, d_model)

    return context @ p["Wo"] + p["bo"]                       # (T, d_model)
