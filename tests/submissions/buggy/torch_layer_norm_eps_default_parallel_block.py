"""Blind round 7 (b7_08, issue 38): layer_norm with torch.nn.LayerNorm's default eps, and an
encoder_block with ViT-22B/GPT-J parallel branches.

Mistakes:
1. layer_norm: default eps=1e-5 (torch.nn.LayerNorm's default) instead of 1e-6. Shows only when
   eps is not passed; the difference is large for tokens with a small variance.
2. encoder_block: parallel attention and MLP branches (ViT-22B / GPT-J / PaLM "parallel
   layers"): x + attn(ln1(x)) + mlp(ln2(x)), both read the block input. Shows always.

Grader: both named ("In `layer_norm`, eps is 1e-05; the lecture's is 1e-06"; "`layer_norm(x,
p['ln2_g'], p['ln2_b'], eps)` is given `x` as it was before `x = x + self_attention(...)`").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'encoder-block': 'op:stale:encoder_block:x-before-update.2'}


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta


def encoder_block(x, p, heads):
    y_attn = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y_mlp = gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + y_attn + y_mlp
