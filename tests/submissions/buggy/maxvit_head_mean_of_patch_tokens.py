"""Blind round 22 (b22_12, issue 38): vit_forward ported from google-research/maxvit (its TF
head: `tf.reduce_mean(x, axis=[1, 2])` over the grid before the logits).

Mistakes:
1. vit_forward pools the mean of the patch tokens, x[1:].mean(axis=0), instead of reading the
   [CLS] row x[0].

Grader: at blind time and now (the same commit), named: the mean of the patch tokens
(vit_mean_pool) on the small ViTs, and on the random check `x[0]` read as `x[1:].mean(axis=0)`
(the same mistake, generated); vit-checkpoint observes the broken function. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_mean_pool'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = np.mean(x[1:], axis=0)  # tf.reduce_mean(x, axis=[1, 2])
    return x @ params["W_head"] + params["b_head"]
