"""HF's ViTEmbeddings ported with its batch axis kept: the [CLS] token is (1, 1, d) and the
positions (1, N + 1, d), so one image comes out as a (1, N + 1, d) batch.
Grader: since session 15 its cls-and-positions mistake was observed (one_axis_off), not named;
since session 16 it is named (layouts.batch_axis_kept: "the result comes back with an extra
axis of length 1 in front"), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:batch_axis_kept:embed_image:result-batch-axis-kept'}


def embed_image(image, params):
    embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])[None]
    cls_tokens = params["cls"].reshape(1, 1, -1)
    embeddings = np.concatenate((cls_tokens, embeddings), axis=1)
    return embeddings + params["pos"][None]
