"""Blind round 14 (b14_11, issue 38): flax.linen's dot_product_attention_weights ("query = query
/ jnp.sqrt(depth)") with the scale folded into the input, and timm VisionTransformer with
global_pool='avgmax' (timm.layers global_pool_nlc) for the head.

Mistakes:
1. self_attention: q = (x / sqrt(d_h)) @ Wq + bq, so the query bias is not scaled (right:
   (x @ Wq + bq) / sqrt(d_h)). Visible only when bq != 0.
2. vit_forward feeds 0.5 * (mean + max) of the patch tokens (rows 1:) after the final norm to
   the head (right: the [CLS] row, row 0).

Grader: at blind time and now, the unscaled bias gets no hint on multi-head-attention's three
checks and, under causal=True, only "returns the expected values only in 1 of 4 rows (row 0)"
(some_rows_wrong: true, but it points at the mask: row 0 attends to itself only, so q cannot
matter there); the avgmax pool gets vit_forward's checklist ("... and the [CLS] row (row 0)
through W_head, b_head"). Nothing named.
Since session 15 the avgmax pool is named (op:pool, timm's global_pool='avgmax' of `x[1:]`); the
unscaled query bias is not.
Since session 16 the unscaled query bias is named too (op:bias_unscaled: the scale folded into
the input, `(x / sqrt(d_h)) @ Wq + bq`), on every failed self_attention check.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:bias_unscaled:self_attention:q-bias-unscaled',
          'no-causal-mask': 'op:bias_unscaled:self_attention:q-bias-unscaled',
          'vit-forward': 'op:pool:vit_forward:x[0]-avgmax-after'}


def self_attention(x, p, heads, causal=False):
    """Multi-head attention after flax.linen.attention (dot_product_attention_weights:
    query = query / jnp.sqrt(depth)); the scale is folded into the input, saving one multiply
    on the (heads, T, T) scores."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    depth = d // heads
    q = ((x / np.sqrt(depth)) @ p["Wq"] + p["bq"]).reshape(T, heads, depth)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, depth)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, depth)
    logits = np.einsum("qhd,khd->hqk", q, k)
    if causal:
        logits = np.where(np.tril(np.ones((T, T), dtype=bool)), logits, -np.inf)
    weights = softmax(logits, axis=-1)
    out = np.einsum("hqk,khd->qhd", weights, v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """Logits, after timm VisionTransformer.forward_head with global_pool='avgmax'
    (global_pool_nlc: 0.5 * (x.mean(1) + x.amax(1)) over the tokens after the prefix)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    patches = x[1:]                       # num_prefix_tokens = 1
    pooled = 0.5 * (patches.mean(axis=0) + patches.max(axis=0))
    return pooled @ params["W_head"] + params["b_head"]
