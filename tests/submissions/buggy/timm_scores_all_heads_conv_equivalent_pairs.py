"""Blind round 10 (b10_02, issue 38): counting ported from timm (PatchEmbed's `to_2tuple(patch_size)`
and `nn.Conv2d(..., kernel_size=patch_size, stride=patch_size)`; Attention's attn tensor
(B, num_heads, N, N), num_heads=12 for vit_base_patch16_224). patch_dim is rewritten with
to_2tuple too, correctly (CORRECT).

Mistakes:
1. attention_scores counts the maps of all 12 heads: `num_heads * T * T`. Every input.
2. conv_equivalent returns to_2tuple pairs, ((P, P), (P, P)). Every P.

Grader: the pairs are named (op:sizes_as_pairs); the 12 heads are observed on the two call checks
(count_scaled: "returns 12 times the expected count on every case that failed"; before, no hint)
and get attention-cost's checklist on the property check.
Since session 14 the 12 heads are named (counts.every_head: `T * T` counted for every head of a
standard ViT): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:every_head:attention_scores:times-12-heads',
          'kernel-stride': 'op:sizes_as_pairs:conv_equivalent:each-as-a-pair'}
CORRECT = ('patch_dim',)


def patch_dim(P, C=3):
    """in_chans * patch_size[0] * patch_size[1] (timm PatchEmbed)."""
    def _to_2tuple(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return (x, x)

    patch_size = _to_2tuple(P)
    return C * patch_size[0] * patch_size[1]


def attention_scores(num_tokens, num_heads=12):
    """Size of timm's attn tensor per image: (num_heads, N, N)."""
    return num_heads * num_tokens * num_tokens


def conv_equivalent(P):
    """nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size) as in timm."""
    def _to_2tuple(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return (x, x)

    patch_size = _to_2tuple(P)
    return (patch_size, patch_size)
