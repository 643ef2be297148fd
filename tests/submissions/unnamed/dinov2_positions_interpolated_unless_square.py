"""Blind round 18 (b18_07, issue 38): embed_image ported from Hugging Face transformers'
DINOv2 (Dinov2Embeddings with interpolate_pos_encoding).

Mistake:
1. DINOv2's early exit `if num_patches == num_positions and height == width` keeps the table only
   for square images: for a non-square one the position table is treated as a sqrt(N) x sqrt(N)
   grid and resampled (nearest neighbour) to (H/P, W/P): wrong positions when N is a perfect square
   (4x16, P=2), a ValueError from the reshape when it is not (4x6). Square images are right.
The student's `interpolate_pos_encoding` is nested in embed_image, and its `_pixel_values` (a float
cast and the solution's checks) is `_as_hwc` with a float cast: the builder replaces only the
solution's own definitions.

Grader: at blind time and now, the visible check observes it ("right when H == W, wrong for a 4 x 6
image", only_square_images); the hidden check names a WRONG cause: "`image` is viewed as rows,
`image.reshape(-1, image.shape[-1])`" (op:rows_kept:embed_image:image-as-rows): embed_image
reshapes no image to rows, and its output shape is right whenever it returns. EXPECT stays honest,
so this fixture's test fails until that hint is no longer given.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'only_square_images'}


def embed_image(image, params):
    """Dinov2Embeddings: interpolate_pos_encoding (top-level in the student's file) nested here."""
    def interpolate_pos_encoding(embeddings, position_embeddings, height, width, patch_size):
        """Dinov2Embeddings.interpolate_pos_encoding, numpy, nearest-neighbour resampling."""
        num_patches = embeddings.shape[0] - 1
        num_positions = position_embeddings.shape[0] - 1
        if num_patches == num_positions and height == width:
            return position_embeddings
        class_pos_embed = position_embeddings[:1]
        patch_pos_embed = position_embeddings[1:]
        dim = embeddings.shape[-1]
        new_height = height // patch_size
        new_width = width // patch_size
        sqrt_num_positions = int(math.sqrt(num_positions))
        patch_pos_embed = patch_pos_embed.reshape(sqrt_num_positions, sqrt_num_positions, dim)
        rows = np.minimum(((np.arange(new_height) + 0.5) * sqrt_num_positions / new_height).astype(int),
                          sqrt_num_positions - 1)
        cols = np.minimum(((np.arange(new_width) + 0.5) * sqrt_num_positions / new_width).astype(int),
                          sqrt_num_positions - 1)
        patch_pos_embed = patch_pos_embed[rows][:, cols].reshape(-1, dim)
        return np.concatenate((class_pos_embed, patch_pos_embed), axis=0)

    pixel_values = np.asarray(_as_hwc(image), dtype=float)
    height, width, _ = pixel_values.shape
    embeddings = linear_patch_embed(pixel_values, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"][None, :]
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    embeddings = embeddings + interpolate_pos_encoding(embeddings, params["pos"], height, width, params["P"])
    return embeddings
