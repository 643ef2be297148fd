"""Blind round 8 (b8_13, issue 38): a DeiT / Conformer-inspired port: DeiT's token count, a
per-head attention loop and a Macaron half-step feed-forward.

Mistakes:
1. num_tokens: `+ 2` with [CLS] ([CLS] and DeiT's distillation token, timm's
   `num_prefix_tokens = 2` for distilled models). Shows with cls_token=True.
2. self_attention: the weights are sliced right, `W[:, h*d_h:(h+1)*d_h]`, the biases with
   `b[h:h + d_h]` (h instead of h*d_h). Shows only with heads > 1 and d_h > 1 (and biases not 0).
3. encoder_block: `x + 0.5 * mlp(ln2(x))`, Conformer's half step (sooftware/conformer's
   module_factor=0.5). Shows always.

Grader: the count is named (op:count_constant: "the `1` a count adds is 2 instead"). The bias
slice is observed once (only_one_head on no-causal-mask's visible check), with no hint on three
checks; the half step is named (op:residual_scaled: "the branch `mlp(...)` is added back scaled
by 0.5").
Since session 16 the bias slice is named on every failed self_attention check (op:bias_sliced:
each head's bias started at h), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:count_constant:num_tokens:1-as-2',
          'multi-head-attention': 'op:bias_sliced:self_attention:biases-start-at-h',
          'no-causal-mask': 'op:bias_sliced:self_attention:biases-start-at-h',
          'encoder-block': 'op:residual_scaled:encoder_block:mlp-branch-times-0.5'}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus the extra tokens."""
    n_extra = 2 if cls_token else 0      # cls token + distillation token
    return num_patches(H, W, P) + n_extra


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("dim should be divisible by num_heads")
    d_h = d // heads
    head_outputs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        q = x @ p["Wq"][:, cols] + p["bq"][h:h + d_h]
        k = x @ p["Wk"][:, cols] + p["bk"][h:h + d_h]
        v = x @ p["Wv"][:, cols] + p["bv"][h:h + d_h]
        scores = q @ k.T / math.sqrt(d_h)
        if causal:
            scores = scores + np.triu(np.full((T, T), -np.inf), k=1)
        head_outputs.append(softmax(scores, axis=-1) @ v)
    return np.concatenate(head_outputs, axis=-1) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """Pre-LN block with a half-step feed-forward residual."""
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    ff = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + 0.5 * ff
