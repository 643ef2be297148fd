"""Blind round 36 (b36_14, issue 38): self_attention and encoder_block ported from a ViT script of
the Fingers-Gesture-Recognition project (Attention with a fused to_qkv sliced into q, k, v; MLP;
TransformerLayer.forward: `x = self.norm1(x); x = x + self.attn(x); x = self.norm2(x);
x = x + self.mlp(x)`).

Mistakes:
1. encoder_block overwrites its input with its LayerNorm before each residual, so both residuals
   add the normalised stream, not the raw x. The fused-qkv self_attention is right.

Grader: at blind time (9ebbf4a) and now, named on both encoder-block checks ("One slip, made at 2
places: ... adds back `layer_norm(x, ...)`, the step's output, instead of `x` itself"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': ('op:residual:encoder_block:residual-from-layer_norm'
                           '+op:residual:encoder_block:residual-from-layer_norm.2')}


def self_attention(x, p, heads, causal=False):
    num_tokens, dim = x.shape
    if dim % heads:
        raise ValueError(f"dim {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    scale = dim_head ** -0.5
    to_qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    to_qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = x @ to_qkv_w + to_qkv_b
    q, k, v = qkv[:, :dim], qkv[:, dim:2 * dim], qkv[:, -dim:]
    # rearrange(t, 'n (h d) -> h n d', h=heads)
    q, k, v = map(lambda t: t.reshape(num_tokens, heads, dim_head).transpose(1, 0, 2), (q, k, v))
    similarity = np.einsum('hid,hjd->hij', q, k) * scale
    if causal:
        similarity = np.where(np.tril(np.ones((num_tokens, num_tokens), dtype=bool)), similarity, -np.inf)
    attention = softmax(similarity, axis=-1)
    out = np.einsum('hij,hjd->hid', attention, v)
    out = out.transpose(1, 0, 2).reshape(num_tokens, dim)   # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """TransformerLayer.forward."""

    def mlp(x):   # Linear(dim, hidden) -> GELU -> Dropout -> Linear(hidden, dim)
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(x, p, heads)
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + mlp(x)
    return x
