"""Blind round 20 (b20_03, issue 38): patchify and embed_image ported from whai362/PVT
(classification/pvt.py: PatchEmbed's `img_size = to_2tuple(img_size)`, `self.H, self.W`, the last
stage adding pos_embed). The student's top-level helper `_img` is nested in patchify here: the
builder replaces only the solution's own definitions.

Mistakes:
1. patchify unpacks the size PIL-style, `W, H = img.shape[:2]` (PIL's Image.size is (width,
   height)): the grid reshape gets the sizes the other way round, right for square images only.
2. embed_image adds the positions to the patch tokens only (pos[1:]) and prepends [CLS]
   afterwards, so [CLS] never gets pos[0].

Grader: at blind time and now, both named: the reshape "given `H // P` and `W // P` the other way
round" (op:sizes) and embed_positions_before_cls; vit-checkpoint observes the broken functions.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped',
          'cls-and-positions': 'embed_positions_before_cls'}


def patchify(image, P):
    def _img(image):
        img = np.asarray(image)
        if img.ndim == 2:
            img = img[:, :, np.newaxis]
        elif img.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return img

    img = _img(image)
    W, H = img.shape[:2]
    C = img.shape[2]
    num_patches(H, W, P)
    Hp, Wp = H // P, W // P
    x = img.reshape(Hp, P, Wp, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(Hp * Wp, -1)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos_embed = params["pos"]
    x = x + pos_embed[1:]
    cls_tokens = params["cls"][np.newaxis, :]
    x = np.concatenate((cls_tokens, x), axis=0)
    return x
