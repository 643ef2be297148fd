"""Blind round 33 (b33_02, issue 38): softmax, layer_norm, self_attention and encoder_block
ported from the CMU 10-414/714 "Deep Learning Systems" lecture notebook "Implementing
Transformers" (dlsyscourse/public_notebooks, transformer_implementation.ipynb: softmax,
multihead_attention, layer_norm, transformer). softmax and layer_norm are right (CORRECT); the
notebook's `multihead_attention` is nested in self_attention.

Mistakes:
1. self_attention: the notebook's `softmax(K @ Q.swapaxes(-1, -2) / sqrt(d / heads))` ported with
   K = x Wk and Q = x Wq (weights packed [Wk|Wq|Wv]): the attention matrix is softmax(k q^T), the
   transpose of the lecture's softmax(q k^T) (the notebook is right only because torch's in_proj
   order puts the queries first). Wrong already with one head, causal or not.
2. encoder_block: the notebook's transformer() is post-LN, Z = LN(attn(x) + x),
   out = LN(Z + MLP(Z)), instead of the pre-LN x + attn(LN(x)), x + MLP(LN(x)).

Grader: at blind time (c4f83ef) and now, named: at blind time "`attention(q, k, v, mask)` is
given `k` and `q` the other way round" (now: "the attention scores are computed as K Q^T, the
keys times the transposed queries ... where Q K^T belongs") on every no-causal-mask and
multi-head-attention check, and "That is a post-LN block" (encoder_post_ln) on encoder-block,
graded with the grader's self_attention standing in; vit-checkpoint observes both. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:arguments:self_attention:q-and-k-swapped',
          'multi-head-attention': 'op:arguments:self_attention:q-and-k-swapped',
          'encoder-block': 'encoder_post_ln'}
CORRECT = ('softmax', 'layer_norm')


def softmax(Z, axis=-1):
    Z = np.exp(Z - Z.max(axis=axis, keepdims=True))
    return Z / Z.sum(axis=axis, keepdims=True)


def layer_norm(Z, gamma, beta, eps=1e-6):
    return (Z - Z.mean(axis=-1, keepdims=True)) / np.sqrt(Z.var(axis=-1, keepdims=True) + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """multihead_attention from the notebook, for one sequence (N = 1) with the course's biases."""
    def multihead_attention(X, mask, heads, W_KQV, b_KQV, W_out, b_out):
        N, T, d = X.shape
        K, Q, V = np.split(X @ W_KQV + b_KQV, 3, axis=-1)
        K, Q, V = [a.reshape(N, T, heads, d // heads).swapaxes(1, 2) for a in (K, Q, V)]

        attn = softmax(K @ Q.swapaxes(-1, -2) / np.sqrt(d // heads) + mask)
        return (attn @ V).swapaxes(1, 2).reshape(N, T, d) @ W_out + b_out, attn

    X = np.asarray(x, dtype=float)
    T, d = X.shape
    if d % heads != 0:
        raise ValueError(f"d = {d} is not divisible by heads = {heads}")
    W_KQV = np.concatenate([p["Wk"], p["Wq"], p["Wv"]], axis=1)
    b_KQV = np.concatenate([p["bk"], p["bq"], p["bv"]])
    if causal:
        M = np.triu(-np.inf * np.ones((T, T)), 1)
    else:
        M = np.zeros((T, T))
    Y, A = multihead_attention(X[None], M, heads, W_KQV, b_KQV, p["Wo"], p["bo"])
    return Y[0]


def encoder_block(x, p, heads):
    """The notebook's transformer(): attention + residual, layer norm, feed-forward + residual, layer norm."""
    eps = 1e-6
    Z = layer_norm(self_attention(x, p, heads) + x, p["ln1_g"], p["ln1_b"], eps)
    return layer_norm(Z + gelu(Z @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"], p["ln2_g"], p["ln2_b"], eps)
