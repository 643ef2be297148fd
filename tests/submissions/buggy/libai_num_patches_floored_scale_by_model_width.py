"""Blind round 57 (b57_02, issue 38): num_patches and self_attention ported from
Oneflow-Inc/libai `libai/models/vision_transformer.py` (PatchEmbed's `grid_size =
(img_size[0] // patch_size[0], img_size[1] // patch_size[1])`, Attention with a fused qkv). The
student's `to_2tuple` (top-level in the file) is nested in num_patches here: the builder replaces
only the solution's own definitions.

Mistakes:
3. num_patches (lines 14-18 of the file as delivered) ports PatchEmbed's grid size with no tiling
   check: sizes that do not tile return a floored count (7x8, P=2 -> 12) instead of raising
   ValueError (P = 0 raises ZeroDivisionError). num_tokens calls it and is wrong the same way;
   sizes that tile are right.
4. self_attention (line 111) scales by `dim ** -0.5` with `dim = C`, the model width, instead of
   libai's `head_dim ** -0.5`. Wrong only with heads > 1 (causal or not); one head is right.

Grader: at blind time (84f876fc) and now, both named. Mistake 3 on patch-count's two tiling checks
("You returned (H // P) * (W // P): floor division silently drops the pixels that do not fit. The
lecture's patches tile the image, so when P does not divide H or W raise ValueError instead of
rounding."); token-count keeps full marks around it (graded with a correct num_patches standing in).
Mistake 4 on multi-head-attention's two checks ("You scaled by 1/sqrt(d), the model width. ...") and
no-causal-mask's causal checks ("In `self_attention` (where each head's attention weights are
computed and applied to its values), the scores are divided by sqrt(d) (at your line `scale = dim **
-0.5`), the model width, instead of sqrt(d_h) ..."); vit-checkpoint observes self_attention. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def num_patches(H, W, P):
    """Number of P x P patches of an H x W image."""
    def to_2tuple(x):
        return (x, x)

    img_size = (H, W)
    patch_size = to_2tuple(P)
    grid_size = (img_size[0] // patch_size[0], img_size[1] // patch_size[1])
    return grid_size[0] * grid_size[1]


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    N, C = x.shape
    if C % heads != 0:
        raise ValueError(f"dim {C} should be divisible by num_heads {heads}")
    num_heads = heads
    dim = C
    scale = dim ** -0.5

    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        future = np.triu(np.ones((N, N), dtype=bool), k=1)
        attn = np.where(future, -np.inf, attn)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x
