"""Blind round 63 (b63_06, issue 38): encoder_block and vit_forward ported from google-research/vmoe
`vmoe/nn/vit_moe.py` (MlpBlock, EncoderBlock, VisionTransformerMoe with classifier='gap'). The
student's top-level `mlp_block` is nested in encoder_block here: the builder replaces only the
solution's own definitions.

Mistakes:
8. encoder_block (line 117 of the file as delivered): the MLP residual is `inputs + y`, the
   block's input, instead of `x + y`, the stream after attention, so the attention output is
   dropped. Wrong on any input.
9. vit_forward (line 125): classifier 'gap', the mean over all tokens, instead of the [CLS] row.
   Wrong on any input.

Grader: at blind time (edc81c9a) and now, 92/110, both named. Mistake 8 on encoder-block's two
checks ("the residual of the model solution's `x + mlp(...)` adds back `x` as it was before the
model solution's `x = x + self_attention(...)`"). Mistake 9 on vit-forward's two ("You averaged
every token. This model's head reads the [CLS] row only: x[0] after the final LayerNorm.");
vit-checkpoint observes them. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:stale:encoder_block:x-before-update',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def encoder_block(inputs, p, heads):
    def mlp_block(inputs, p):
        x = inputs @ p["W1"] + p["b1"]
        x = gelu(x)
        return x @ p["W2"] + p["b2"]

    x = layer_norm(inputs, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)
    x = x + inputs
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = mlp_block(y, p)
    return inputs + y


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = np.mean(x, axis=0)
    return x @ params["W_head"] + params["b_head"]

