"""Blind round 43 (b43_02, issue 38): self_attention and encoder_block ported from a compact
Julia transformer with a parameters() NamedTuple and forward(x, θ) (code-search file id
23194428559: `S = (K' * Q) .* scale`, `Z = θ.W_O * (V * softmax(S; dims=2)')`, `H₁ = max.(θ.W₁
* X₂ .+ θ.b₁, T(0))`), columns-as-tokens turned into rows-as-tokens.

Mistakes:
1. self_attention: `S = K' * Q` then `softmax(S; dims=2)` ported literally as `K @ Q.T`
   softmaxed over axis 1: the scores are k_i . q_j normalised over j, i.e. queries and keys
   swapped (each token attends with its key).
2. encoder_block: the MLP uses ReLU (`max.(W₁X₂ .+ b₁, 0)`) instead of GELU.

Grader: at blind time (b20830f) and now, both named: at blind time "In `self_attention`,
`attention(q, k, v, mask)` is given `k` and `q` the other way round ..." (now: "In
`self_attention`, the attention scores are computed as K Q^T, the keys times the transposed queries
... where Q K^T belongs ...") on no-causal-mask and multi-head-attention (the reference's words for
the same cause), and "The MLP uses ReLU; ViT's MLP uses GELU ..." on encoder-block (graded with the
grader's self_attention); vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'no-causal-mask': 'op:arguments:self_attention:q-and-k-swapped',
    'multi-head-attention': 'op:arguments:self_attention:q-and-k-swapped',
    'encoder-block': 'encoder_relu',
}


def self_attention(x, p, heads, causal=False):
    """forward(x, θ)'s attention, one head at a time (Julia columns are our rows)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_k = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    scale = 1.0 / math.sqrt(d_k)
    Z = np.empty((T, d))
    for h in range(heads):
        cols = slice(h * d_k, (h + 1) * d_k)
        S = (K[:, cols] @ Q[:, cols].T) * scale          # K' * Q
        if causal:
            S = S + np.triu(np.full((T, T), -np.inf), 1)
        A = softmax(S, axis=1)                           # softmax(S; dims=2)
        Z[:, cols] = A @ V[:, cols]                      # (V * A')' with tokens as rows
    return Z @ p["Wo"] + p["bo"]

def encoder_block(x, p, heads):
    """X₁ = layernorm(X), X̃ = X + attention, X₂ = layernorm(X̃), H₁ = max.(W₁X₂ .+ b₁, 0), X = X̃ + H₂."""
    X1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    Xt = x + self_attention(X1, p, heads)
    X2 = layer_norm(Xt, p["ln2_g"], p["ln2_b"])
    H1 = np.maximum(X2 @ p["W1"] + p["b1"], 0.0)
    H2 = H1 @ p["W2"] + p["b2"]
    return Xt + H2
