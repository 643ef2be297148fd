"""Blind round 60 (b60_06, issue 38): self_attention and vit_forward ported from
Vision-CAIR/MiniGPT-4 `minigpt4/models/eva_vit.py` (Attention with q_bias, a zero k bias and
v_bias, under `convert_weights_to_fp16` / `vit_precision="fp16"`; VisionTransformer's
forward_features, which ends after the blocks as in EVA for BLIP-2), with softmax ported right
(CORRECT: it casts to float64 first, so the attention weights are float64 as in the file). The
student's top-level `forward_features` is nested in vit_forward here: the builder replaces only
the solution's own definitions.

Mistakes:
9. self_attention (lines 99-102 of the file as delivered) ports the fp16 conversion as
   `.astype(np.float16)` on the fused qkv weight, the bias and x: the projections and scores are
   computed in half precision, about 1e-3 relative error, growing with the values. Wrong on any
   input at normal tolerance, and so in encoder_block and vit_forward. (The zero key bias is
   harmless: bk cancels in the softmax.)
10. vit_forward (lines 141-143): forward_features ends after the blocks, so the final
    `layer_norm(ln_g, ln_b)` is never applied before the head. Wrong on any input.

Grader: at blind time (528b2ec3) and now, 88/110. Mistake 10 named on vit-forward's two checks
("The head reads tokens that did not go through the final LayerNorm (skipped, or its result left
unused) ..."). Mistake 9 not named: multi-head-attention's three checks give their checklists
("With one head, d_h = d: q, k, v = x @ Wq + bq, ..."), no-causal-mask's causal checks an
observation pointing back to multi-head-attention; encoder-block passes within its atol 2e-3;
vit-checkpoint observes vit_forward. Mistake 9 unnamed at blind time; named since (the error
model's dtypes.steps_in: the projections of x computed in float16, each cast back, named where
the rounding explains the student's values): moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:steps_in:self_attention:steps-1-2-3-on-x-as-float16',
          'no-causal-mask': 'op:steps_in:self_attention:steps-1-2-3-on-x-as-float16',
          'vit-forward': 'vit_final_ln_skipped'}
CORRECT = ('softmax',)  # casts to float64, exp in place on the shifted copy


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - x.max(axis=axis, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=axis, keepdims=True)
    return x


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1).astype(np.float16)
    q_bias, v_bias = p["bq"], p["bv"]
    qkv_bias = np.concatenate((q_bias, np.zeros_like(v_bias), v_bias)).astype(np.float16)
    qkv = x.astype(np.float16) @ qkv_weight + qkv_bias
    qkv = qkv.reshape(N, 3, num_heads, -1).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N))) > 0, attn, -np.inf)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).transpose(1, 0, 2).reshape(N, -1)
    x = x @ p["Wo"] + p["bo"]
    return x


def vit_forward(image, params):
    def forward_features(image, params):
        x = embed_image(image, params)
        for blk in params["blocks"]:
            x = encoder_block(x, blk, params["heads"])
        return x

    x = forward_features(image, params)
    return x[0] @ params["W_head"] + params["b_head"]
