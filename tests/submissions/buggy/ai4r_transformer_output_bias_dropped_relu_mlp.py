"""Blind round 81 (b81_06, issue 38): self_attention and encoder_block ported from
SergioFierens/ai4r `lib/ai4r/neural_network/transformer.rb`. The delivered file's top-level
helpers `matmul`, `affine`, `relu` and `feed_forward` are nested in the functions that call them.

Mistakes:
1. self_attention (line 131 of the file as delivered): `matmul(concat, p["Wo"])`, the output
   bias `bo` dropped (the Ruby source has no biases): wrong whenever bo != 0.
2. encoder_block, through its `feed_forward` (line 136): ReLU instead of GELU, the source's
   feed-forward: wrong on every input with negative pre-activations.

Grader: at blind time (b5c841e9) and now, 89/110. Mistake 1 named on multi-head-attention and no-causal-mask ("In
`self_attention` (at the model solution's step `linear(out, p['Wo'], p['bo'])`), the bias `b` is
left out of `x @ W + b`."); mistake 2 named on encoder-block ("The MLP uses ReLU; ViT's MLP uses
GELU"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:term:self_attention/linear.4:drop-b',
          'no-causal-mask': 'op:term:self_attention/linear.4:drop-b',
          'encoder-block': 'encoder_relu'}


def self_attention(x, p, heads, causal=False):
    def matmul(mat, weights):
        return np.asarray(mat, dtype=float) @ np.asarray(weights, dtype=float)

    def affine(mat, weights, bias):
        return matmul(mat, weights) + bias

    x = np.asarray(x, dtype=float)
    embed_dim = x.shape[1]
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    hd = embed_dim // heads
    scale = math.sqrt(hd)
    heads_out = []
    for h in range(heads):
        cols = slice(h * hd, (h + 1) * hd)
        q = affine(x, p["Wq"][:, cols], p["bq"][cols])
        k = affine(x, p["Wk"][:, cols], p["bk"][cols])
        v = affine(x, p["Wv"][:, cols], p["bv"][cols])
        scores = matmul(q, k.T) / scale
        if causal:
            scores = scores + np.triu(np.full(scores.shape, -np.inf), 1)
        heads_out.append(matmul(softmax(scores), v))
    concat = np.concatenate(heads_out, axis=1)
    return matmul(concat, p["Wo"])


def encoder_block(x, p, heads):
    def matmul(mat, weights):
        return np.asarray(mat, dtype=float) @ np.asarray(weights, dtype=float)

    def affine(mat, weights, bias):
        return matmul(mat, weights) + bias

    def relu(x):
        return np.where(x > 0, x, 0.0)

    def feed_forward(x, p):
        h = affine(x, p["W1"], p["b1"])
        h = relu(h)
        return affine(h, p["W2"], p["b2"])

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + feed_forward(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
