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

Grader: at blind time, the visible check observed it ("right when H == W, wrong for a 4 x 6
image", only_square_images); the hidden check named a WRONG cause, "`image` is viewed as rows"
(op:rows_kept:embed_image:image-as-rows), no longer given by session 18. Now named
(ports.positions_unless_square: the table kept for square images only, else read as a
sqrt(N) x sqrt(N) grid and resampled, F.interpolate's mode='nearest-exact'), on the visible
check's 2 x 8 image (a 1 x 4 grid: N = 4 is a square, so the table is resampled, and the two
nearest modes pick other rows there) and, reproduced, on the hidden one.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:positions_unless_square:embed_image:pos-resampled-unless-square-nearest-exact'}


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
