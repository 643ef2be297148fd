"""lucidrains' vit-pytorch with pool='mean' ported: x.mean(dim=1) over every token, [CLS]
included, then mlp_head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes)): the
final LayerNorm is the head's, applied to the pooled vector, not to every token before the
[CLS] row is read."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:pool_before_step:vit_forward:x[0]-mean-all-before-layer_norm'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for attn_ff in params["blocks"]:
        x = encoder_block(x, attn_ff, params["heads"])
    x = x.mean(axis=0)
    mlp_head_norm = layer_norm(x, params["ln_g"], params["ln_b"])
    return mlp_head_norm @ params["W_head"] + params["b_head"]
