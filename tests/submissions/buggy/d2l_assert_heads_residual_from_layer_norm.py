"""Blind round 7 (b7_14, issue 38): d2l-style self_attention with timm's `assert dim % num_heads ==
0`, and an encoder_block whose attention residual starts from the normalised input.

Mistakes:
1. self_attention: `assert d % heads == 0` (timm / many tutorials) instead of raising
   ValueError: heads that do not divide d raise AssertionError. Shows only when heads does not
   divide d.
2. encoder_block: the attention residual starts from the normalised input, `h = ln1(x); x = h +
   attn(h)` (Howuhh/faster-trajectory-transformer#3, pytorch/pytorch#61165). Shows always
   (unless ln1 is the identity).

Grader: the residual is named ("adds back `layer_norm(x, ...)`, the step's output, instead of
`x`"). The assert gets the case checklists ("raise ValueError when d % heads != 0");
AssertionError is not named.
Since session 15 an `assert` where ValueError is asked for is a named mistake (refused_with_assert: the worker sees the AssertionError): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'refused_with_assert',
          'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    assert d % heads == 0, "dim should be divisible by num_heads"

    def transpose_qkv(X):
        X = X.reshape(X.shape[0], heads, -1)
        return X.transpose(1, 0, 2)

    def transpose_output(X):
        return X.transpose(1, 0, 2).reshape(X.shape[1], -1)

    queries = transpose_qkv(x @ p["Wq"] + p["bq"])
    keys = transpose_qkv(x @ p["Wk"] + p["bk"])
    values = transpose_qkv(x @ p["Wv"] + p["bv"])
    scores = queries @ keys.transpose(0, 2, 1) / math.sqrt(queries.shape[-1])
    if causal:
        valid = np.tril(np.ones((T, T), dtype=bool))
        scores = np.where(valid, scores, -1e6)
    attention_weights = softmax(scores, axis=-1)
    return transpose_output(attention_weights @ values) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = h + self_attention(h, p, heads)
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
