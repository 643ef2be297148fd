"""num_patches counts W // P in both directions (wrong unless H == W); embed_image is right,
taking as many rows of `pos` as its own num_tokens counts, which calls that num_patches (the
lecture's count of the N + 1 tokens): the course solution never calls num_tokens there, so none
of these calls was recorded, and they are computed; why-positions' property calls embed_image
the same way (a helper of a function a property tests)."""
# ruff: noqa: F821  (every other name is the solution's)


def num_patches(H, W, P):
    if H % P or W % P:
        raise ValueError(f"{P} x {P} patches do not tile a {H} x {W} image")
    return (W // P) * (W // P)


def embed_image(image, params):
    image = _as_hwc(image)
    H, W, _ = image.shape
    P = params["P"]
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], P)
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens + params["pos"][:num_tokens(H, W, P)]
