"""Blind round 35 (b35_07, issue 38): GabinAgbale/vit_jax (model/multihead_attention.py:
scaled_dot_product, MultiheadAttention, TransformerLayer; model/vision_transformer.py:
VisionTransformer; Flax, after the UvA DL JAX tutorial 6), ported to self_attention,
encoder_block and vit_forward.

Mistakes:
1. self_attention concatenates Wq|Wk|Wv into one qkv projection (S, 3d), reshapes it to
   (S, heads, 3d/heads) and array_splits q, k, v per head (the UvA tutorial's layout, which
   assumes per-head interleaved weights): with several heads, head h's "q" takes columns of Wq
   and Wk. Right with one head only.
2. encoder_block: the source's `x = x + self.dropout(x, ...)` ported as `x = x + x`: the MLP's
   output ffn_out is computed and discarded, the stream doubled. Wrong on every input.
3. vit_forward: the head is `nn.Sequential([nn.Dense(num_classes), nn.gelu])`: gelu applied to
   the logits. Wrong on every input.

Grader: at blind time (2f30801), #1 named on the four failed attention checks ("q, k, v come
from one fused product ... split per token as (heads, 3, d_h) where its columns are (3, heads,
d_h)"); #2 only the encoder-block checklist ("... both residuals, and the MLP step by step
..."), #3 only the vit-forward checklist ("... with no softmax or other function after them").
Now all three named: #2 by op:branch_discarded (discarded.py: "the residual `x + mlp(...)` is
written `x + x`: the branch's output, `mlp(...)`, is never added ..."), #3 by
op:stem_activation on the head (stems.py: "the linear map's output `linear(x[0], ...)` goes
through GELU before it is returned ..."; the exact GELU and its tanh approximation, which the
check's tolerance cannot tell apart, were two names before, so none); vit-checkpoint observes
the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'encoder-block': 'op:branch_discarded:encoder_block:mlp-branch-discarded-x-doubled',
          'vit-forward': 'op:stem_activation:vit_forward:result-through-gelu'}


def self_attention(x, p, heads, causal=False):
    """MultiheadAttention.__call__ for one sequence (no batch axis)."""
    seq_length, embed_dim = x.shape
    if embed_dim % heads:
        raise ValueError(f"width {embed_dim} is not divisible by {heads} heads")

    def scaled_dot_product(q, k, v, mask=None):
        d_k = q.shape[-1]
        attn_logits = np.matmul(q, np.swapaxes(k, -2, -1))
        attn_logits = attn_logits / math.sqrt(d_k)
        if mask is not None:
            attn_logits = np.where(mask == 0, -9e15, attn_logits)
        attention = softmax(attn_logits, axis=-1)
        values = np.matmul(attention, v)
        return values, attention

    # qkv_proj = nn.Dense(3 * embed_dim): the three projections stacked
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ W_qkv + b_qkv                              # (S, 3*d)
    qkv = qkv.reshape(seq_length, heads, -1)             # (S, H, 3*d//H)
    qkv = qkv.transpose(1, 0, 2)                         # (H, S, 3*d//H)
    q, k, v = np.array_split(qkv, 3, axis=-1)            # q, k, v: (H, S, d//H)

    mask = np.tril(np.ones((seq_length, seq_length))) if causal else None
    values, attention = scaled_dot_product(q, k, v, mask=mask)
    values = values.transpose(1, 0, 2)                   # (S, H, d//H)
    values = values.reshape(seq_length, embed_dim)
    o = values @ p["Wo"] + p["bo"]
    return o


def encoder_block(x, p, heads):
    """TransformerLayer.__call__, with the norms moved in front as the lecture's pre-LN block has them."""
    attn_out = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + attn_out

    ffn = [
        lambda t: t @ p["W1"] + p["b1"],
        gelu,
        lambda t: t @ p["W2"] + p["b2"],
    ]
    ffn_out = np.copy(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    for layer in ffn:
        ffn_out = layer(ffn_out)

    x = x + x
    return x


def vit_forward(image, params):
    """VisionTransformer.__call__ for one image."""
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])

    def ffn_head(t):                            # nn.Sequential([nn.Dense(num_classes), nn.gelu])
        return gelu(t @ params["W_head"] + params["b_head"])

    cls = x[0]
    return ffn_head(cls)
