"""Blind round 54 (b54_12, issue 38): embed_image after the Keras `CLS_Token` layer (code-search
excerpt `from keras import layers, ops` ... `ops.concatenate([x, cls_token], axis=1)`); ANSWERS
with one answer changed.

Mistakes:
1. embed_image appends [CLS] as the last row (row N) instead of prepending it as row 0; positions
   are then added to the wrong rows. Every call differs; vit_forward's row 0 is then the first
   patch, so logits differ everywhere.
2. ANSWERS["medical"] = "scratch" instead of "pretrained" (the other two answers are right).

Grader: at blind time (5f4a3d53) and now, both named: M1 on cls-and-positions ("You appended [CLS]
as the last row. The course prepends it: [CLS] is row 0, the row the classifier head reads, and the
patches follow in raster order."), M2 on pretrained-or-scratch ("A from-scratch ViT needs a large
image set: Dosovitskiy et al. found ViTs need more data than ResNets when trained from scratch. "Do
not train a ViT from scratch on 800 scans": start from a pretrained tower (or a CNN)."); vit-forward
keeps its points (graded with the grader's embed_image standing in), vit-checkpoint observes
embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended',
          'pretrained-or-scratch': 'medical:scratch'}


def embed_image(image, params):
    """The token sequence (N + 1, d): patch tokens with the learned class token, plus positions."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"].reshape(1, -1)
    x = np.concatenate([x, cls_token], axis=0)
    return x + params["pos"]


ANSWERS["medical"] = "scratch"
