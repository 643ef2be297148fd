"""Blind round 33 (b33_04, issue 38): softmax, layer_norm, self_attention and encoder_block
ported from rziga/numpy-is-all-you-need (nn/layers/activations.py Softmax, nn/layers/basic.py
LayerNorm and Linear, nn/layers/attention.py AttentionHead / MultiHeadAttention,
nn/layers/transformer.py FeedForward). self_attention, a per-head loop, is right (CORRECT).

Mistakes:
1. softmax: Softmax.forward hard-codes axis=-1; the `axis` argument is ignored (shows only when
   axis != -1 is given).
2. layer_norm: LayerNorm.forward divides by x.std(), with no eps (the `eps` argument unused).
3. encoder_block: FeedForward's second Linear has bias=False: the MLP returns
   gelu(h W1 + b1) W2, b2 dropped.

Grader: at blind time (c4f83ef) and now, named: "`axis` is taken as its default, -1, whatever is
given" on stable-softmax (the sum-to-1 property gets its checklist), "eps `eps` is left out of
`var + eps`" on layer-norm, "(in its step `linear(h, p['W2'], p['b2'])`), the bias `b` is left
out of `x @ W + b`" on encoder-block, graded with the grader's layer_norm and softmax standing in;
vit-checkpoint observes all three. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default',
          'layer-norm': 'op:term:layer_norm:drop-eps',
          'encoder-block': 'op:term:encoder_block/mlp/linear.2:drop-b'}
CORRECT = ('self_attention',)
ALIASES = ('softmax_wrong_axis',)  # the sum-to-1 property's checklist for the axis


def softmax(x, axis=-1):
    # Softmax.forward
    expx = np.exp(x - x.max(axis=-1, keepdims=True))
    O = expx / expx.sum(axis=-1, keepdims=True)
    return O


def layer_norm(x, gamma, beta, eps=1e-6):
    # LayerNorm.forward, then the affine part
    mu = x.mean(axis=-1, keepdims=True)
    sigma = x.std(axis=-1, keepdims=True)
    X_shift = x - mu
    return X_shift / sigma * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"d_model {d_model} not divisible by n_heads {heads}")
    d_hidden = d_model // heads

    def generate_tril_mask(shape):
        return np.zeros(shape) + np.tril(np.ones(shape[-2:]))  # broadcast

    def attention_head(h, input):
        cols = slice(h * d_hidden, (h + 1) * d_hidden)
        Q = input[0] @ p["Wq"][:, cols] + p["bq"][cols]
        K = input[1] @ p["Wk"][:, cols] + p["bk"][cols]
        V = input[2] @ p["Wv"][:, cols] + p["bv"][cols]
        scale = d_hidden ** 0.5
        x = (Q @ K.swapaxes(-1, -2)) / scale
        if causal:
            mask = generate_tril_mask(x.shape)
            x[mask == 0] = -1e11
        x = softmax(x)
        return x @ V

    outs = [attention_head(h, [x, x, x]) for h in range(heads)]
    out = np.concatenate(outs, axis=-1)
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def feed_forward(h):
        h = h @ p["W1"] + p["b1"]      # Linear(d_model, d_ff)
        h = gelu(h)
        return h @ p["W2"]             # Linear(d_ff, d_model, bias=False)

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x
