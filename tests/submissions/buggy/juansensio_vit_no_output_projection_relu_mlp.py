"""Blind round 34 (b34_14, issue 38): self_attention and encoder_block ported from
juansensio/blog (064_vit/vit.ipynb: MultiHeadAttention with one qkv Linear reshaped to (B, N, 3,
nh, E//nh); TransformerBlock with ln1, attn, ln2 and mlp = Linear, ReLU, Linear). The
notebook's `mlp` is nested in encoder_block.

Mistakes:
1. self_attention: no output projection: the notebook's MultiHeadAttention returns the merged
   heads, so Wo and bo are never applied.
2. encoder_block: the MLP's activation is ReLU (`nn.ReLU()` in the notebook's mlp), not GELU.

Grader: at blind time (5712eea) and now, named: "In `self_attention`, the step `linear(out,
p['Wo'], p['bo'])` is left out" on no-causal-mask and "After putting the heads side by side,
apply the output projection: @ Wo + bo." (attention_no_output_projection) on
multi-head-attention; "The MLP uses ReLU; ViT's MLP uses GELU" on encoder-block (graded with the
grader's self_attention standing in); vit-checkpoint observes them. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:skip:self_attention:skip-linear.4',
          'multi-head-attention': 'attention_no_output_projection',
          'encoder-block': 'encoder_relu'}


def self_attention(x, p, heads, causal=False):
    N, E = x.shape
    if E % heads:
        raise ValueError(f"embed dim {E} is not divisible by n_heads {heads}")

    # key, query, value projections (self.qkv = nn.Linear(n_embd, 3*n_embd))
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])

    # (N, 3*E) -> (N, 3, nh, E//nh) -> (3, nh, N, E//nh)
    qkv = (x @ W_qkv + b_qkv).reshape(N, 3, heads, E // heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    # attention (nh, N, E//nh) x (nh, E//nh, N) -> (nh, N, N)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[-1]))
    if causal:
        att = np.where(np.tril(np.ones((N, N), dtype=bool)), att, -np.inf)
    att = softmax(att, axis=-1)
    y = att @ v  # (nh, N, N) x (nh, N, E//nh) -> (nh, N, E//nh)
    y = y.transpose(1, 0, 2).reshape(N, E)  # re-assemble all head outputs side by side
    return y


def encoder_block(x, p, heads):
    def mlp(h):
        h = h @ p["W1"] + p["b1"]   # nn.Linear(n_embd, 4 * n_embd)
        h = np.maximum(h, 0)        # nn.ReLU()
        return h @ p["W2"] + p["b2"]  # nn.Linear(4 * n_embd, n_embd)

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x
