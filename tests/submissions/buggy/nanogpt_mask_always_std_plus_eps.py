"""Lab 4 submission; attention adapted from nanoGPT's CausalSelfAttention, norm written by hand.

Mistakes (2):
- layer_norm adds eps to the standard deviation, (x - mean) / (std + eps), not inside the
  square root.
- self_attention always applies the causal (lower-triangular) mask, ignoring causal=False,
  as nanoGPT's block does.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside', 'multi-head-attention': 'attention_causal', 'no-causal-mask': 'gpt_causal_mask'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the mask


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis."""
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma = np.std(x, axis=-1, keepdims=True)
    return gamma * (x - mu) / (sigma + eps) + beta


def self_attention(x, p, heads, causal=False):
    """CausalSelfAttention.forward for one sequence (T, C)."""
    T, C = x.shape
    if C % heads:
        raise ValueError(f"n_embd {C} not divisible by n_head {heads}")
    hs = C // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(hs))
    bias = np.tril(np.ones((T, T)))
    att = np.where(bias == 0, float("-inf"), att)
    att = softmax(att, axis=-1)
    y = att @ v
    y = y.transpose(1, 0, 2).reshape(T, C)
    return y @ p["Wo"] + p["bo"]
