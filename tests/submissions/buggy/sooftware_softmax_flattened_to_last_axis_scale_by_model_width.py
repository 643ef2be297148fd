"""Blind round 58 (b58_03, issue 38): softmax and self_attention ported from sooftware/attentions
`attentions.py` (DotProductAttention's `F.softmax(score.view(-1, input_size), dim=1)`,
RelativeMultiHeadAttention's `self.sqrt_dim = math.sqrt(d_model)`, ScaledDotProductAttention,
MultiHeadAttention). The student's `scaled_dot_product_attention` (top-level in the file) is
nested in self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
5. softmax (lines 73-77 of the file as delivered) flattens x to `(-1, x.shape[-1])` and
   normalises over dim 1, ignoring `axis`: always the last axis. Wrong only when axis is not the
   last axis (axis=0 on 2-D, axis=1 on 3-D).
6. self_attention (line 100) divides the scores by `sqrt_dim = math.sqrt(d_model)`,
   RelativeMultiHeadAttention's scale, instead of sqrt(d_head). Wrong only with heads > 1.

Grader: at blind time (ba46f523) and now, 91/110, both named. Mistake 5 on stable-softmax's small
examples and random check ("In `softmax`, `axis` is taken as its default, -1, whatever is given.";
the sum-to-1 property gives its checklist, `softmax_wrong_axis`). Mistake 6 on
multi-head-attention's two checks ("You scaled by 1/sqrt(d), the model width. Each head's dot
products are over d_h = d // heads numbers: scale by 1/sqrt(d_h).") and no-causal-mask's causal
checks ("In `self_attention` (...), the scores are divided by sqrt(d) (at your line `sqrt_dim =
math.sqrt(d_model)`), the model width, instead of sqrt(d_h) ..."); vit-checkpoint observes
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}
ALIASES = ('softmax_wrong_axis',)  # the sum-to-1 property's checklist for the axis ignored


def softmax(x, axis=-1):
    """Numerically stable softmax along `axis`."""
    input_size = x.shape[-1]
    score = x.reshape(-1, input_size)
    score = np.exp(score - score.max(axis=1, keepdims=True))
    attn = score / score.sum(axis=1, keepdims=True)
    return attn.reshape(x.shape)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    def scaled_dot_product_attention(query, key, value, sqrt_dim, mask=None):
        score = np.matmul(query, key.transpose(0, 2, 1)) / sqrt_dim
        if mask is not None:
            score = np.where(mask, -np.inf, score)
        attn = softmax(score, -1)
        context = np.matmul(attn, value)
        return context, attn

    d_model = x.shape[-1]
    if d_model % heads != 0:
        raise ValueError("d_model % num_heads should be zero.")
    d_head = int(d_model / heads)
    sqrt_dim = math.sqrt(d_model)

    query = (x @ p["Wq"] + p["bq"]).reshape(-1, heads, d_head)  # Q_LEN x N x D
    key = (x @ p["Wk"] + p["bk"]).reshape(-1, heads, d_head)
    value = (x @ p["Wv"] + p["bv"]).reshape(-1, heads, d_head)
    query = query.transpose(1, 0, 2)  # N x Q_LEN x D
    key = key.transpose(1, 0, 2)
    value = value.transpose(1, 0, 2)

    mask = None
    if causal:
        T = x.shape[0]
        mask = np.triu(np.ones((T, T), dtype=bool), k=1)[None].repeat(heads, axis=0)

    context, attn = scaled_dot_product_attention(query, key, value, sqrt_dim, mask)
    context = context.transpose(1, 0, 2).reshape(-1, heads * d_head)  # T x ND
    return context @ p["Wo"] + p["bo"]
