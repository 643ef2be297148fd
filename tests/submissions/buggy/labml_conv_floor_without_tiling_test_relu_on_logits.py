"""Blind round 54 (b54_06, issue 38): linear_patch_embed and vit_forward ported from
labmlai/annotated_deep_learning_paper_implementations, labml_nn/transformers/vit/__init__.py
(PatchEmbeddings through `nn.Conv2d(in, d, P, stride=P)`, VisionTransformer.forward,
ClassificationHead `linear1 -> ReLU -> linear2`).

Mistakes:
1. linear_patch_embed goes through conv_patch_embed with stride P, which floors, and there is no
   tiling check: non-tiling images return the floored tokens (8x6 C=3 P=4 -> (2, d); 10x8 C=1 P=4
   -> (4, d)) instead of raising ValueError; embed_image follows (9x8 P=4 returns). Tiling images
   are right (an image with no whole patch: conv_patch_embed's own ValueError).
2. vit_forward applies the head's ReLU to the logits: `np.maximum(x @ W_head + b_head, 0)`. Every
   negative logit becomes 0 ([-3.397, 0.918, -0.017, 0.256] -> [0, 0.918, 0, 0.256]).

Grader: at blind time (5f4a3d53), both named: #1 on linear-patch-embed's "patches that do not tile
raise ValueError" as "2 mistakes at once: (1) In `linear_patch_embed` (at the lecture's step
`patchify(image, P)`), there is no tiling test: it refuses no size: ... (2) ... the image is
cropped to the patches that fit before it is cut ..." (one slip told as two); #2 on both
vit-forward checks ("In `vit_forward`, the linear map's output ... goes through ReLU before it is
returned ... Return them without it."). vit-checkpoint's observation also said "Your
`linear_patch_embed` loses points in its own exercise (linear-patch-embed): ... its mistake may be
what fails here": wrong, every checkpoint image tiles and there the function is exactly right.
Now named: #1 as one mistake ("In `linear_patch_embed` (at the lecture's step `patchify(image,
P)`), there is no tiling test: a size P does not tile (30 x 32 with P = 16) is let through. ...
Then the image is cropped to the patches that fit before it is cut ..."), #2 as before; the
checkpoint's observation says only "Your `vit_forward` loses points in its own exercise
(vit-forward): fix it there first, as its mistake may be what fails here.".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:tiling:linear_patch_embed/patchify:none'
                                '+op:cropped:linear_patch_embed/patchify:image-cropped-to-tile',
          'vit-forward': 'op:stem_activation:vit_forward:result-through-relu'}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch embeddings (N, d).

    The paper splits the image into patches and applies a linear map to each flattened patch;
    as in labml's PatchEmbeddings this is done with a convolution whose kernel size and stride
    are the patch size.
    """
    image = _as_hwc(image)
    C = image.shape[2]
    d = W_e.shape[1]
    x = conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P)   # (h, w, d)
    h, w, c = x.shape
    x = x.reshape(h * w, c)
    return x


def vit_forward(image, params):
    """Logits of one image: patch embeddings, [CLS] and positions, the layers, then the head."""
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    # Get the transformer output of the [CLS] token (the first in the sequence)
    x = x[0]
    # Layer normalization
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # Classification head
    x = np.maximum(x @ params["W_head"] + params["b_head"], 0)
    return x
