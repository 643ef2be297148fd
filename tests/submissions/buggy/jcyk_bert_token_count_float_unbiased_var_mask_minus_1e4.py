"""Blind round 70 (b70_13, issue 38): num_tokens, layer_norm and self_attention ported from
jcyk/BERT `utils.py` (BERT naming: transpose_for_scores, attention_probs, an additive -10000
mask).

Mistakes:
1. num_tokens (line 17 of the file as delivered): `n = H * W / P ** 2`, a float (197.0): the
   value right, the type not (a count is an int).
2. layer_norm (line 84): `x.var(-1, ddof=1)`, torch's unbiased variance, instead of the biased
   one. Wrong on every input.
3. self_attention (line 105): the causal mask adds -10000 (BERT's extended attention mask)
   instead of hiding the scores with -inf: scores of size ~10000 leak through (inputs x100 give
   an error of about 400). The writer's key missed it; the judge found it.

Grader: at blind time (3f040026; 87/110 in a venv without scipy, which the file imports for its
`gelu`, 93/110 with it, as the test environment has) and now, 93/110. Mistake 1 named on
token-count ("the count ... comes out as a float"); mistake 2 named on layer-norm ("You used the
unbiased variance (ddof=1 ...)"); mistake 3 named on no-causal-mask ("the hidden scores get
-10000 added ... -10000 is not low enough ... Hide them with -np.inf"). Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:count_as_float:num_tokens:count-as-float',
          'layer-norm': 'layer_norm_unbiased',
          'no-causal-mask': 'op:shallow_fill:self_attention/attention:minus-inf-as-added-1e4'}


def num_tokens(H, W, P, cls_token=True):
    if H % P != 0 or W % P != 0:
        raise ValueError("image is not tiled by the patch size")
    n = H * W / P ** 2
    return n + 1 if cls_token else n


def layer_norm(x, gamma, beta, eps=1e-6):
    u = x.mean(-1, keepdims=True)
    s = x.var(-1, ddof=1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    return gamma * x + beta


def self_attention(x, p, heads, causal=False):
    seq_len, hidden = x.shape
    if hidden % heads != 0:
        raise ValueError("The hidden size is not a multiple of the number of attention heads")
    head_size = hidden // heads

    def transpose_for_scores(t):
        return t.reshape(seq_len, heads, head_size).transpose(1, 0, 2)

    query_layer = transpose_for_scores(np.dot(x, p["Wq"]) + p["bq"])
    key_layer = transpose_for_scores(np.dot(x, p["Wk"]) + p["bk"])
    value_layer = transpose_for_scores(np.dot(x, p["Wv"]) + p["bv"])

    attention_scores_ = np.matmul(query_layer, key_layer.transpose(0, 2, 1))
    attention_scores_ = attention_scores_ / math.sqrt(head_size)
    if causal:
        attention_mask = (1.0 - np.tril(np.ones((seq_len, seq_len)))) * -10000.0
        attention_scores_ = attention_scores_ + attention_mask
    attention_probs = softmax(attention_scores_, axis=-1)
    context_layer = np.matmul(attention_probs, value_layer)
    context_layer = context_layer.transpose(1, 0, 2).reshape(seq_len, hidden)
    return np.dot(context_layer, p["Wo"]) + p["bo"]
