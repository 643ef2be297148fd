"""Blind round 69 (b69_13, issue 38): vit_forward ported from
parkie0517/Visual-Prompt-Tuning-for-ViT-B-4 `timm_ViT.py` (global_pool='avg').

Mistakes:
1. vit_forward (lines 218-226 of the file as delivered): `global_pool == 'avg'`, so
   use_fc_norm: no final norm over the tokens, the patch tokens (not [CLS]) mean-pooled, and
   ln_g/ln_b applied after the pooling as fc_norm. Wrong on every input.

Grader: at blind time (cb37e6da) and now, 98/110, named on vit-forward (at blind time
"`layer_norm(x, params['ln_g'], params['ln_b'])` comes after a pooling: `x[0]` is read as
`x[1:].mean(axis=0)` ... the lecture runs the step on every row and then reads row 0"; now:
"`x[0]` is read as `x[1:].mean(axis=0)`: the rows after row 0 averaged ... and that order is no
part of the mistake"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-after-before-layer_norm'}


def vit_forward(image, params):
    """VisionTransformer.forward = forward_features + forward_head (timm_ViT.py),
    global_pool='avg': use_fc_norm, so self.norm is Identity and fc_norm follows the pooling."""
    global_pool = 'avg'
    num_prefix_tokens = 1                      # the class token
    use_fc_norm = global_pool == 'avg'
    # forward_features
    x = embed_image(image, params)             # patch_embed + _pos_embed
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    if not use_fc_norm:
        x = layer_norm(x, params["ln_g"], params["ln_b"])   # self.norm
    # forward_head
    if global_pool == 'avg':
        x = x[num_prefix_tokens:].mean(axis=0)
    elif global_pool:
        x = x[0]  # class token
    if use_fc_norm:
        x = layer_norm(x, params["ln_g"], params["ln_b"])   # self.fc_norm
    return x @ params["W_head"] + params["b_head"]
