"""Blind round 57 (b57_05, issue 38): facebookresearch/ijepa `src/models/vision_transformer.py`
(PatchEmbed: `num_patches = (img_size // patch_size) * (img_size // patch_size)`; Attention's
`return x, attn`; Block's `y, attn = self.attn(self.norm1(x))`).

Mistakes:
9. `num_patches` (and `num_tokens` through it) counts `(H // P) ** 2` and tests the tiling of H
   only: wrong for H != W (8x12, P = 4: 4 instead of 6; a W that does not tile is accepted).
10. `self_attention` returns `(x, attn)` like ijepa's `Attention.forward` instead of the (T, d)
    array (its first element is the right one); its own `encoder_block` unpacks it, so the block
    and vit_forward are right (encoder_block is in CORRECT). Shows on any call.

Grader: at blind time (84f876fc) #9 named (op:sibling:num_patches:W-as-H, with the height-only
tiling test on the check of sizes that do not tile); #10 only observed ("returned no finite
array of the shape it should", "got: tuple of 2") and the checklist. Now #10 is named on every
call check of self_attention (kinds/returned_items.py): "Your `self_attention` returns a tuple of
2 values where the student API's `self_attention` returns one: its first item is the expected
result on every case here, so the rest is extra (...)". why-positions' properties and
no-causal-mask's first one still say only that it returned no finite array of the right shape.
In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'multi-head-attention': 'extra_items_returned',
          'no-causal-mask': 'extra_items_returned'}
CORRECT = ('encoder_block',)
ALIASES = ('op:tiling:num_patches:height-only',)  # the height-only tiling test, #9's own


def num_patches(H, W, P):
    img_size, patch_size = H, P
    if patch_size <= 0 or img_size % patch_size:
        raise ValueError(f"img_size {img_size} is not a multiple of patch_size {patch_size}")
    num_patches = (img_size // patch_size) * (img_size // patch_size)
    return num_patches


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    qkv = np.concatenate([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]],
                         axis=-1)
    qkv = qkv.reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.swapaxes(-2, -1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N))) == 1, attn, -np.inf)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).swapaxes(0, 1).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x, attn


def encoder_block(x, p, heads):
    def mlp(x, p):
        x = x @ p["W1"] + p["b1"]
        x = gelu(x)
        x = x @ p["W2"] + p["b2"]
        return x

    y, attn = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + y
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
