"""Blind round 50 (b50_08, issue 38): encoder_block and vit_forward ported from openai/CLIP,
clip/model.py (`QuickGELU`, `ResidualAttentionBlock`'s `mlp` as c_fc, gelu, c_proj,
`VisionTransformer.forward`'s `ln_post(x[:, 0, :])` then `x @ proj`).

Mistakes:
1. The MLP activation is QuickGELU, `x * sigmoid(1.702 x)`, not exact (erf) or tanh GELU:
   encoder_block and vit_forward are wrong on every input.
2. The head has no bias: CLIP's `proj` is a bare matrix, so `b_head` is never added.

Grader: at blind time (593126bb) and now, M1 named on encoder-block: "In `encoder_block` (at the
lecture's step `mlp(layer_norm(x, p['ln2_g'], p['ln2_b'], eps), p, activation)`), the activation
is CLIP's quick GELU, x * sigmoid(1.702 x) where the lecture uses GELU (exact, x * Phi(x); its
tanh approximation is accepted)."; M2 named on vit-forward (graded with the grader's
encoder_block standing in): "In `vit_forward` (at the lecture's step `linear(x[0],
params['W_head'], params['b_head'])`), the bias `b` is left out of `x @ W + b`."; vit-checkpoint
observes both. Every mistake named, so in buggy/. The student's quick_gelu (top-level in the file)
is nested in encoder_block here: the builder replaces only the solution's own definitions.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu',
          'vit-forward': 'op:term:vit_forward/linear:drop-b'}


def encoder_block(x, p, heads):
    def quick_gelu(x):
        return x * (1.0 / (1.0 + np.exp(-1.702 * x)))

    def mlp(h):
        h = h @ p["W1"] + p["b1"]      # c_fc
        h = quick_gelu(h)              # gelu
        return h @ p["W2"] + p["b2"]   # c_proj

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])

    x = layer_norm(x[0, :], params["ln_g"], params["ln_b"])

    if params.get("W_head") is not None:
        x = x @ params["W_head"]

    return x
