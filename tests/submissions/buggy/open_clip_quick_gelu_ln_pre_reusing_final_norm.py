"""Blind round 55 (b55_07, issue 38): encoder_block and vit_forward ported from an open_clip-style
`transformer.py` (find_string id 71008541381: `QuickGELU`, `VisionTransformer` with `ln_pre`).
The student's `quick_gelu` (top-level in the file) is nested in encoder_block here: the builder
replaces only the solution's own definitions.

Mistakes:
1. encoder_block's MLP uses QuickGELU, `x * sigmoid(1.702 x)`, not the erf GELU (or the accepted
   tanh one). Wrong on every input (max |diff| 0.014 to 0.02, heads 1, 2, 4).
2. vit_forward ports CLIP's `x = self.ln_pre(x)` reusing `ln_g, ln_b`: an extra layer_norm on
   the embedded sequence before the blocks; `ln_post` on `x[0]` is kept (as the API's final
   norm). Wrong even with zero blocks (max |diff| 0.48).

Grader: at blind time (cdc1de9a) and now, both named. Mistake 1 on encoder-block's two checks
("In `encoder_block` (at the model solution's step `mlp(layer_norm(x, p['ln2_g'], p['ln2_b'],
eps), p, activation)`), the activation is CLIP's quick GELU, x * sigmoid(1.702 x) where the
lecture uses GELU (exact, x * Phi(x); its tanh approximation is accepted)."). Mistake 2 on
vit-forward's two checks, regraded with a correct encoder_block standing in ("In `vit_forward`,
`x = layer_norm(x, params['ln_g'], params['ln_b'])` also runs before `for block in
params['blocks']` (as CLIP's ln_pre does), not only once after the loop."); vit-checkpoint
observes vit_forward and encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu',
          'vit-forward': "op:indentation:vit_forward:layer_norm(xparams['ln_g']params['ln_b']-before-loop-too"}


def encoder_block(x, p, heads):
    """Residual attention block (T, d) -> (T, d)."""
    def quick_gelu(x):
        return x * (1.0 / (1.0 + np.exp(-1.702 * x)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + quick_gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    x = embed_image(image, params)          # [grid ** 2 + 1, width]
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x[0, :], params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
