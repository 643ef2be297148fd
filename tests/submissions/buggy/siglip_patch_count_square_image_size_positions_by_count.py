"""Blind round 71 (b71_10, issue 38): num_patches and embed_image (with its `_pixel_values`)
ported from salimkhazem/Vision `SigLip/siglip/model/embeddings.py` (SiglipVisionEmbeddings:
`num_patches = (self.image_size // self.patch_size) ** 2`, positions looked up by
`position_ids`).

Mistakes:
1. num_patches (lines 16-17 of the file as delivered): `image_size = H; (image_size // P) **
   2`, the source's square count; the tiling test is right. Wrong on non-square images only.
embed_image (lines 89-92) has no mistake of its own: it looks the positions up as
`pos[np.arange(num_tokens(H, W, P))]`, H and W each where they belong, and only inherits the
wrong count (for H < W a lookup too short, a broadcast ValueError; for H > W an IndexError).
With num_patches fixed alone the file scores 110/110.
The delivered file's top-level helper `_pixel_values` is nested here.

Grader: at blind time (3f040026) and now, 100/110. Mistake 1 named on patch-count ("In
`num_patches`, `W // P` reads `H` where `W` belongs: in effect `H // P`, a copy of its sibling
term (right only when H == W)"). cls-and-positions (5 points) and why-positions (2 points) lose
points only through that count (collateral: the grader's correct `num_tokens` cannot stand in
here, it answers only the calls the course solution makes), and cls-and-positions says "Your
`embed_image` is right when H == W, and raises IndexError or ValueError for a 4 x 6 image: use
H and W each where they belong", WRONG (the judge's wrong hint 3): embed_image uses H and W
where they belong; the swap is in num_patches. why-positions says only that embed_image failed
("the traceback says where; it may be in a function it calls"), true. Every mistake named, but
a hint wrong and 7 points collateral, so in unnamed/ at blind time. Mended since, in the same
session (checks/api.py: `embed_image` and `vit_forward` are built on `num_tokens` and
`num_patches`, as the lecture counts the N + 1 rows of pos from the patches): embed_image is
graded again with the grader's count standing in and keeps its points (107/110, only
patch-count's 3 lost), and no hint blames it. So in buggy/, embed_image in CORRECT.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H'}
CORRECT = ('embed_image',)  # right code, whose calls of the broken count are stood in for


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError(f"image {H}x{W} is not divisible by patch size {P}")
    image_size = H
    return (image_size // P) ** 2


def embed_image(image, params):
    def _pixel_values(image):
        image = np.asarray(image, dtype=np.float64)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("pixel_values must be [Height, Width] or [Height, Width, Channels]")
        return image

    image = _pixel_values(image)
    H, W, _ = image.shape
    P = params["P"]
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], P)
    embeddings = np.concatenate([params["cls"][None, :], embeddings], axis=0)
    num_positions = num_tokens(H, W, P)
    position_ids = np.arange(num_positions)
    # Add Positional Embeddings
    embeddings = embeddings + params["pos"][position_ids]
    return embeddings
