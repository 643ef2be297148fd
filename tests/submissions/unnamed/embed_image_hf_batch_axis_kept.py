"""HF's ViTEmbeddings ported with its batch axis kept: the [CLS] token is (1, 1, d) and the
positions (1, N + 1, d), so one image comes out as a (1, N + 1, d) batch.
Since session 15: its cls-and-positions mistake is observed (one_axis_off), not named, so in
unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'one_axis_off'}


def embed_image(image, params):
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])[None]
    cls_tokens = params["cls"].reshape(1, 1, -1)
    embeddings = np.concatenate((cls_tokens, embeddings), axis=1)
    return embeddings + params["pos"][None]
