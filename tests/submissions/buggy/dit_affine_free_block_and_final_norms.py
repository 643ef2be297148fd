"""Blind round 31 (b31_02, issue 38): facebookresearch/DiT, models.py (DiTBlock with norm1/norm2
`nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)` and the approx_gelu timm Mlp;
FinalLayer's norm_final), without the timestep/label conditioning; the tanh GELU is accepted.

Mistakes:
1. encoder_block: both LayerNorms are affine-free, `layer_norm(h, 1.0, 0.0)`: ln1_g, ln1_b,
   ln2_g and ln2_b are never used. Wrong whenever a gain is not 1 or a shift not 0.
2. vit_forward: the final norm is DiT's affine-free norm_final, `layer_norm(x, 1.0, 0.0)`:
   ln_g and ln_b are never used.

Grader: at blind time (fbf6cc7) and now, 2 named as "One slip, made at 2 places: (1) In
`vit_forward` (in its step `layer_norm(x, params['ln_g'], params['ln_b'])`), the shift beta
`beta` is left out ... (2) ... the gain gamma `gamma` is left out" on vit-forward (graded with
the grader's encoder_block standing in); 1 is not named: encoder-block's two checks get only
the spec's generic checklist (pre-LN order, both residuals, the MLP), nothing about the unused
gains and shifts. vit-checkpoint observes the broken encoder_block and vit_forward.
Since session 17 (error_model/slips.py: one slip at every call of a helper in one function) 1 is
named as "One slip, made at 4 places": gain and shift left out at both LayerNorms. Since blind
round 47 (affine.py's affine_not_passed) 2 is one single: "the normalisation is used without its
learned scale and shift ... where the lecture's multiplies them by `params['ln_g']` and adds
`params['ln_b']`". In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:term:encoder_block/layer_norm:drop-beta+op:term:encoder_block/layer_norm:drop-gamma+op:term:encoder_block/layer_norm.2:drop-beta+op:term:encoder_block/layer_norm.2:drop-gamma',
          'vit-forward': 'op:affine_not_passed:vit_forward/layer_norm:affine-not-passed'}


def encoder_block(x, p, heads):
    """DiTBlock.forward without adaLN: x + attn(norm1(x)), then x + mlp(norm2(x))."""

    def approx_gelu(h):                       # nn.GELU(approximate="tanh")
        return 0.5 * h * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h ** 3)))

    def mlp(h):                               # timm Mlp: fc1 -> act -> fc2
        return approx_gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    def norm1(h):                             # nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)
        return layer_norm(h, 1.0, 0.0, eps=1e-6)

    norm2 = norm1

    x = x + self_attention(norm1(x), p, heads)
    x = x + mlp(norm2(x))
    return x


def vit_forward(image, params):
    """DiT.forward, with a classifier head instead of FinalLayer's unpatchify."""
    x = embed_image(image, params)            # x_embedder(x) + pos_embed, here with [CLS]
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # FinalLayer: norm_final = nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)
    x = layer_norm(x, 1.0, 0.0, eps=1e-6)
    return x[0] @ params["W_head"] + params["b_head"]
