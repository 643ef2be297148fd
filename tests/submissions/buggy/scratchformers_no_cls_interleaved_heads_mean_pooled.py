"""Blind round 67 (b67_07, issue 38): num_tokens, self_attention and
vit_forward ported from shreydan/scratchformers `ViT/vit.py`.

Mistakes:
10. num_tokens (line 23 of the file as delivered): `cls_token=False` by default (the source ViT
    mean-pools, no [CLS]). Wrong where cls_token is left at its default.
11. self_attention (line 147): einops 'b t (h n) -> b n t h' with n = n_heads,
    `y.reshape(t, head_size, n_heads).transpose(2, 0, 1)`: head n takes columns n, n + heads, ...
    (interleaved), merged contiguously. Wrong with heads > 1 only.
12. vit_forward (line 183): `x = x.mean(axis=0)`, mean pooling, not the [CLS] row.

Grader: at blind time (d3fd340b) and now, 83/110, all named. Mistake 10 on token-count
("`cls_token` defaults to False (`cls_token=False` in the signature)"); mistake 11 on
multi-head-attention and no-causal-mask ("In `self_attention` (in each of the model solution's 3
calls of `split_heads`), ... each of the `heads` groups takes every `heads`-th element
(interleaved)"); mistake 12 on vit-forward ("You averaged every token"); attention-cost, which
runs the student's num_tokens, observes mistake 10. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False',
          'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def num_tokens(H, W, P, cls_token=False):
    """Sequence length entering the transformer (patches, plus [CLS] if you use one)."""
    return num_patches(H, W, P) + (1 if cls_token else 0)


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention from scratchformers: q,k,v -> 'b t (h n) -> b n t h'."""
    t, embed_dim = x.shape
    n_heads = heads
    assert_ok = embed_dim % n_heads == 0
    if not assert_ok:
        raise ValueError('embedding dimension must be divisible by number of heads')
    head_size = embed_dim // n_heads
    scale = head_size ** -0.5

    def rearrange_in(y):   # 't (h n) -> n t h', n = n_heads
        return y.reshape(t, head_size, n_heads).transpose(2, 0, 1)

    q = rearrange_in(x @ p["Wq"] + p["bq"])
    k = rearrange_in(x @ p["Wk"] + p["bk"])
    v = rearrange_in(x @ p["Wv"] + p["bv"])
    qk_t = (q @ k.transpose(0, 2, 1)) * scale          # n x t x t
    if causal:
        qk_t = np.where(np.tril(np.ones((t, t), dtype=bool)), qk_t, -np.inf)
    weights = softmax(qk_t, axis=-1)
    attention = weights @ v                            # n x t x h
    attention = attention.transpose(1, 0, 2).reshape(t, embed_dim)   # 'n t h -> t (n h)'
    return attention @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """Logits of one image: embed, blocks, final norm, pool, head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.mean(axis=0)  # seq_len x embed_dim -> embed_dim
    return x @ params["W_head"] + params["b_head"]
