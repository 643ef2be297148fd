"""vit_forward builds its own token sequence instead of calling embed_image and appends [CLS]
after the patches (then adds the positions), while the head still reads row 0: it classifies
from the first patch, not from [CLS]."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_cls_appended'}


def vit_forward(image, params):
    tokens = patchify(image, params["P"]) @ params["W_e"] + params["b_e"]
    x = np.vstack([tokens, params["cls"]]) + params["pos"]
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
