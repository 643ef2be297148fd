"""Blind round 81 (b81_11, issue 38): patchify and embed_image ported from skr3178/lerobot
`pos_emb_token_del.py`. The delivered file's top-level helper `_image` is nested in both
functions here.

Mistakes:
1. patchify (line 47 of the file as delivered): each patch flattened as `patch.transpose(2, 0,
   1)`, (c, p1, p2) order: wrong for multi-channel images only (linear_patch_embed inherits).
2. embed_image (lines 83-89): the patches' positions indexed from 0 (`pos[i * gw + j]`) while
   [CLS] also gets `pos[0]`: `pos[N]` is never used and every patch gets its neighbour's
   position: wrong for every image, gray ones too.

Grader: at blind time (b5c841e9) and now, 93/110. Mistake 1 named on patchify ("You flattened each patch channel
first, (c, p1, p2)"); mistake 2 named on cls-and-positions ("In `embed_image`, the rows of
`params['pos']` after the first reach the rows one late: row i gets `params['pos'][i - 1]`").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'cls-and-positions': "op:one_row_late:embed_image:params['pos']-one-row-late"}


def patchify(image, P):
    def _image(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    image = _image(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    patches = []
    # For each location (i,j):
    for i in range(gh):
        for j in range(gw):
            patch = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]  # (P, P, C)
            patches.append(patch.transpose(2, 0, 1).reshape(-1))
    return np.array(patches)


def embed_image(image, params):
    def _image(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    P = params["P"]
    img = _image(image)
    H, W, _ = img.shape
    gh, gw = H // P, W // P
    image_features = linear_patch_embed(img, params["W_e"], params["b_e"], P).reshape(gh, gw, -1)
    positional_embeddings = params["pos"]

    transformer_tokens = [params["cls"] + positional_embeddings[0]]
    for i in range(gh):
        for j in range(gw):
            # Get image features for this location
            img_feat = image_features[i, j, :]
            # Get positional embedding for this location
            pos_emb = positional_embeddings[i * gw + j]
            # Combine them
            token = img_feat + pos_emb
            # Add to transformer sequence
            transformer_tokens.append(token)
    return np.array(transformer_tokens)
