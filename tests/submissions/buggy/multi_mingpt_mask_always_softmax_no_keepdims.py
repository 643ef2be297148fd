"""minGPT's CausalSelfAttention ported with its registered causal mask applied always (the
`bias` buffer), and a softmax whose max is taken without keepdims. Two mistakes in two
functions. Since why-positions' property computes the helpers of the functions it tests
(stand_ins.py), its check of self_attention is graded around the broken softmax and finds the
mask's own order dependence (attention_not_equivariant)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal', 'no-causal-mask': 'gpt_causal_mask',
          'stable-softmax': 'op:keepdims:softmax:max.keepdims',
          'why-positions': 'attention_not_equivariant'}


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis))
    return e / np.sum(e, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // heads
    bias = np.tril(np.ones((T, T)))
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(hs))
    att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = (att @ v).transpose(1, 0, 2).reshape(T, C)
    return y @ p["Wo"] + p["bo"]
