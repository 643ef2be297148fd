"""embed_image forgets the positions."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_forgotten', 'why-positions': 'bag_of_tiles'}


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([params["cls"][None, :], tokens], axis=0)
    return tokens
