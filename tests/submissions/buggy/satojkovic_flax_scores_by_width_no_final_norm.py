"""Blind round 37 (b37_07, issue 38): satojkovic/vit-jax-flax, vit_jax_flax/vit.py (Flax linen:
MultiHeadSelfAttention, ViT.__call__: x[:, 0] then mlp_head / cls_head).

Mistakes:
1. `self_attention`: scores divided by `math.sqrt(C)` (C the hidden width), following the
   source's `/ math.sqrt(D)`, instead of sqrt(d_h). Shows only with several heads.
2. `vit_forward`: no final layer_norm: the source's ViT takes x[:, 0] straight into the head
   (its mlp_head was dropped, the API having no weights for it).

Grader: at blind time (273cad6) and now, both named: "the scores are divided by sqrt(d), the
model width, instead of sqrt(d_h)" on no-causal-mask and multi-head-attention; "The head reads
tokens that did not go through the final LayerNorm" on vit-forward (graded with the grader's
self_attention standing in). vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d',
          'vit-forward': 'vit_final_ln_skipped'}


def self_attention(x, p, heads, causal=False):
    T, C = x.shape  # seq_length, hidden_dim
    if C % heads != 0:
        raise ValueError("hidden_dim must be divisible by n_heads")
    N, Dh = heads, C // heads  # num_heads, head_dim
    q = (x @ p["Wq"] + p["bq"]).reshape(T, N, Dh).transpose(1, 0, 2)  # (N, T, D)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, N, Dh).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, N, Dh).transpose(1, 0, 2)

    # weights (N, T, T)
    weights = np.matmul(q, np.swapaxes(k, -2, -1)) / math.sqrt(C)
    if causal:
        weights = np.where(np.tril(np.ones((T, T), dtype=bool)), weights, -np.inf)
    normalized_weights = softmax(weights, axis=-1)

    # attention (N, T, D)
    attention = np.matmul(normalized_weights, v)

    # gather heads
    attention = attention.transpose(1, 0, 2).reshape(T, N * Dh)

    # project
    out = attention @ p["Wo"] + p["bo"]
    return out


def vit_forward(image, params):
    x = embed_image(image, params)
    for i in range(len(params["blocks"])):
        x = encoder_block(x, params["blocks"][i], params["heads"])
    # MLP head
    x = x[0]  # [CLS] token
    x = x @ params["W_head"] + params["b_head"]
    return x
