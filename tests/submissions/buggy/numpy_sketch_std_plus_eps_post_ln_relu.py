"""Blind round 38 (b38_08, issue 38): a numpy sketch (code-search file id 25481042831:
multi_head_attention over head slices, relu, layer_norm with std + epsilon, a post-norm
transformer_block; the relu helper nested in encoder_block). self_attention's per-head loop is
right (CORRECT).

Mistakes:
1. layer_norm: `(x - mean) / (std + eps)`, eps outside the square root.
2. encoder_block: post-LN (`layer_norm(x + attn(x))`, then `layer_norm(ff + x)`): attention and
   the MLP read the un-normalised input.
3. encoder_block: the MLP uses ReLU instead of GELU.

Grader: at blind time (60400f1) and now, all named: 1 "eps goes inside the square root" on
layer-norm; 2 and 3 together ("2 mistakes at once: (1) That is a post-LN block ... (2) The MLP
uses ReLU") on encoder-block (graded with the grader's layer_norm standing in). vit-checkpoint
observes both functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside', 'encoder-block': 'encoder_post_ln+encoder_relu'}
CORRECT = ('self_attention',)


def layer_norm(x, gamma, beta, eps=1e-6):
    """layer normalization"""
    mean = np.mean(x, axis=-1, keepdims=True)
    std = np.std(x, axis=-1, keepdims=True)
    epsilon = eps
    return gamma * (x - mean) / (std + epsilon) + beta


def self_attention(x, p, heads, causal=False):
    """multi-head attention mechanism: each head on its own slice of the projections"""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"{d} is not divisible by {heads} heads")
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    def attention(Q, K, V):
        """scaled dot product attention"""
        dim = Q.shape[-1]
        scores = Q @ K.T / dim ** 0.5
        if causal:
            scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)
        scores = softmax(scores, axis=-1)
        return scores @ V

    attention_heads = []
    heads_dim = d // heads
    for i in range(0, d, heads_dim):
        attention_heads.append(attention(Q[:, i:i + heads_dim], K[:, i:i + heads_dim], V[:, i:i + heads_dim]))
    # flatten the attention heads
    multihead_attention = np.concatenate(attention_heads, axis=-1)
    return multihead_attention @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Single transformer block"""
    def relu(x):
        """ReLU activation function"""
        return np.maximum(0, x)

    def feed_forward(x):
        """Feed forward network"""
        return relu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    y = self_attention(x, p, heads)
    y = x + y
    y = layer_norm(y, p["ln1_g"], p["ln1_b"])

    ff = feed_forward(y)
    ff = ff + y
    ff = layer_norm(ff, p["ln2_g"], p["ln2_b"])
    return ff
