"""timm's VisionTransformer with global_pool='avg' ported: the patch tokens (without [CLS]) are
averaged and the final LayerNorm is applied after pooling (timm's fc_norm), not to every token
before reading the [CLS] row."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-after-before-layer_norm'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = x[1:].mean(axis=0)
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
