"""Blind round 15 (b15_06, issue 38): the patch count from a sliding-window tutorial ("the
patch must fit in the image"), vit_forward after DETR's transformer encoder, which adds the
positional embedding again at every layer.

Mistakes:
1. num_patches raises ValueError only when P <= 0 or P > H or P > W and returns
   (H // P) * (W // P): sizes that do not tile are floored instead of refused. (num_tokens is
   written on its own, with the tiling check: correct.)
2. vit_forward adds params["pos"] again before every block (encoder_block(x + pos, ...)); the
   positions are added once, in embed_image.

Grader: at blind time and now, the floored count is named (floor_division_count); the positions
added at every block get only vit_forward's checklist.
Since session 14 the positions at every block are named (terms.term_each_step: a term
`embed_image` adds added again before each step of the loop): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'vit-forward': "op:term_each_step:vit_forward:encoder_block-input-plus-params['pos']"}
CORRECT = ('num_tokens',)


def num_patches(H, W, P):
    """Count of P x P patches; the patch must fit in the image (sliding-window tutorial)."""
    if P <= 0 or P > H or P > W:
        raise ValueError(f"a {P}x{P} patch does not fit a {H}x{W} image")
    return (H // P) * (W // P)


def num_tokens(H, W, P, cls_token=True):
    """Patches plus [CLS]."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    n = (H // P) * (W // P)
    return n + 1 if cls_token else n


def vit_forward(image, params):
    """Logits; the encoder follows DETR's TransformerEncoder (pos added to the input of each layer)."""
    x = embed_image(image, params)
    pos = params["pos"]
    for block in params["blocks"]:
        x = encoder_block(x + pos, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
