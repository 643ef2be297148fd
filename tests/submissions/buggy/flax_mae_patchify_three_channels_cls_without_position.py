"""Blind round 47 (b47_07, issue 38): patchify and embed_image ported from a Flax linen MAE
(code-search file id 34712546543): VisionTransformer.patchify (`jnp.reshape(imgs, (n, h, p, w,
q, 3))`), AddPositionEmbs(use_cls_token=True) on the patch grid, then the cls token in
apply_encoder.

Mistakes:
1. `patchify`: 3 channels hard-coded: a 2-D image, C = 1 or C = 2 raises ValueError ("cannot
   reshape"); RGB images are right.
2. `embed_image`: the positions `pos[1:]` are added to the patch tokens only, then [CLS] is
   concatenated with no position: row 0 is `cls` instead of `cls + pos[0]`.

Grader: at blind time (a4c32119) and now, named: "In `patchify`, every image but an (H, W, 3) RGB
one ... is refused ..." on patchify (worked example, RGB images, grayscale, hidden); "You added
the positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at
all ..." on cls-and-positions (graded with the grader's patchify); vit-checkpoint observes
embed_image and patchify. Every mistake named, so in buggy/. Since round 48 (b48_01) patchify's
is named as the count written as 3 (rgb_only.channels_as_rgb): "In `patchify`, the channel count
is written as 3, as code for RGB images hard-codes it ... numpy refuses the reshape", the code's
own `reshape(..., 3)`, where the guard's reading said a refusal the code never wrote.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:channels_as_rgb:patchify:C-as-3',
          'cls-and-positions': 'embed_positions_before_cls'}


def patchify(image, P):
    """VisionTransformer.patchify for one image: imgs (H, W, 3) -> x (L, P**2 * 3)."""
    imgs = np.asarray(image)
    if imgs.ndim not in (2, 3):
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {imgs.shape}")
    num_patches(imgs.shape[0], imgs.shape[1], P)   # ValueError when P does not tile
    p, q = P, P
    h, w = imgs.shape[0] // p, imgs.shape[1] // q

    x = np.reshape(imgs, (h, p, w, q, 3))
    x = np.einsum('hpwqc->hwpqc', x)
    x = np.reshape(x, (h * w, p * q * 3))
    return x


def embed_image(image, params):
    """apply_encoder: patch embedding, AddPositionEmbs(use_cls_token=True), then the cls token."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # AddPositionEmbs with use_cls_token=True: the table has a row for the cls token,
    # the patch grid takes the rows after it
    pe = params["pos"][1:]
    x = x + pe
    # If we want to add a class token, add it here.
    cls = params["cls"][None, :]
    x = np.concatenate([cls, x], axis=0)
    return x
