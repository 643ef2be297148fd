"""Blind round 70 (b70_04, issue 38): embed_image ported from BiaPyX/BiaPy
`models/tr_patch_mgmnt.py` (the Keras PatchEncoder: projection, then position embedding).

Mistakes:
1. embed_image (lines 74-78 of the file as delivered): positions `pos[0:N]` added to the N patch
   tokens, then [CLS] prepended with no position; [CLS] should come first and all N + 1
   positions be added. Wrong on every image.

Grader: at blind time (3f040026) and now, 98/110, named on cls-and-positions ("`x +
params['pos']` is added before ... `np.vstack([params['cls'], x])`, ... `params['pos'][:len(x)]`").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def embed_image(image, params):
    # It takes patches and projects them into a `projection_dim` dimensional space, then the position embedding is added
    patch = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num_patches_ = patch.shape[0]
    positions = np.arange(0, num_patches_, 1)
    encoded = patch + params["pos"][positions]
    return np.concatenate([params["cls"][None, :], encoded], axis=0)
