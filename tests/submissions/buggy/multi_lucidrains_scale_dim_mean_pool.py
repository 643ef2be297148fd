"""lucidrains' ViT with pool='mean' ported, and its Attention's scale written from dim rather
than dim_head: the scores are divided by sqrt(d), and the head reads the mean of every token
(after the final LayerNorm), not the [CLS] row. Two mistakes in two functions."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError("heads must divide dim")
    scale = dim ** -0.5
    q, k, v = (np.stack(np.split(x @ p[f"W{c}"] + p[f"b{c}"], heads, axis=-1)) for c in "qkv")
    dots = q @ k.transpose(0, 2, 1) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    out = softmax(dots, axis=-1) @ v
    return np.concatenate(list(out), axis=-1) @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.mean(axis=0)
    return x @ params["W_head"] + params["b_head"]
