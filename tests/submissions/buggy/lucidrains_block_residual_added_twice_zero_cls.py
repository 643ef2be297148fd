"""Blind round 13 (b13_04, issue 38): lucidrains vit-pytorch's `x = attn(x) + x; x = ff(x) + x` loop
habit, and a zero-initialised class token.

Mistakes:
1. vit_forward: `x = encoder_block(x, block, heads) + x` -- the block already holds both
   residuals, so its input is added a second time.
2. embed_image: the [CLS] row is np.zeros(d) (the parameter's initialiser) instead of
   params["cls"].

Grader: embed_image observed ("returns the expected values except in 1 of 5 rows (row 0)",
some_rows_wrong); vit_forward only the checklist ("vit_forward reuses embed_image,
encoder_block and layer_norm ... check the order ...").
Since choices.parameter_as_zeros and residual_around_step: both named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:zeros:embed_image:params['cls']-as-zeros",
          'vit-forward': 'op:residual_around:vit_forward:x-added-around-encoder_block'}


def embed_image(image, params):
    """Patch tokens, a class token in front, positions added."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    n, dim = x.shape
    cls_token = np.zeros((1, dim))          # nn.Parameter(torch.zeros(1, 1, dim))
    x = np.concatenate([cls_token, x], axis=0)
    x = x + params["pos"][: n + 1]
    return x


def vit_forward(image, params):
    """lucidrains ViT.forward: embed, transformer, norm, cls pooling, head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"]) + x
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
