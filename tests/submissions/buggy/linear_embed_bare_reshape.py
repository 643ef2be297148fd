"""linear_patch_embed cuts its own patches with a bare image.reshape(N, P*P*C) and never calls
patchify: each "patch" is a run of consecutive pixels along a row, not a P x P tile."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bare_reshape'}


def linear_patch_embed(image, W_e, b_e, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    if H % P or W % P:
        raise ValueError(f"P={P} does not tile a {H}x{W} image")
    N = (H // P) * (W // P)
    patches = image.reshape(N, P * P * C)
    return patches @ W_e + b_e
