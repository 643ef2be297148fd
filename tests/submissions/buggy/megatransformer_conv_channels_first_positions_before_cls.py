"""Blind round 79 (b79_08, issue 38): conv_patch_embed and embed_image ported from
Mekadrom/megatransformer `model/image/feature_extractors.py` (PatchEmbedding's strided convolution
and pos_embedding).

Mistakes:
1. conv_patch_embed (lines 81 and 87 of the file as delivered; its docstring, lines 70-71):
   the output laid out channels first, (d, H', W'), as torch's conv lays it out, instead of
   (H', W', d): the wrong shape on every input.
2. embed_image (lines 98-101): the positions `pos[1:]` added to the patch tokens, then [CLS]
   prepended without a position (the source has no [CLS]): row 0 lacks pos[0].
The delivered file's top-level helper `_as_image` is nested in conv_patch_embed here.

Grader: at blind time (50c6c808) and now, 94/110. Mistake 1 named on kernel-stride ("In
`conv_patch_embed`, the result is returned with its last axis first (channels first: (F, H', W')
for (H', W', F), as torch's conv2d lays out its output) ... `np.moveaxis(out, 0, -1)`"), mistake
2 on cls-and-positions ("You added the positions before prepending [CLS], so the patches got
pos[1:] and [CLS] got no position at all"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-channels-first',
          'cls-and-positions': 'embed_positions_before_cls'}


def conv_patch_embed(image, K, b, stride):
    """
    Uses a strided convolution to extract patches from the input
    and project each patch to d_model dimensions in a single operation.

    Args:
        image: (height, width, in_channels)
        K: (k, k, in_channels, d_model)
    Returns:
        (d_model, H_out, W_out)
    """
    def _as_image(image):
        x = np.asarray(image, dtype=np.float64)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError(f"expected (H, W) or (H, W, C), got {x.shape}")
        return x

    x = _as_image(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel does not fit in the image")
    d_model = K.shape[-1]
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    out = np.zeros((d_model, H_out, W_out))
    for c in range(d_model):
        for i in range(H_out):
            for j in range(W_out):
                window = x[i * stride:i * stride + k, j * stride:j * stride + k, :]
                out[c, i, j] = np.sum(window * K[:, :, :, c]) + b[c]
    return out  # Shape: (d_model, H/patch_size, W/patch_size)


def embed_image(image, params):
    patch_embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # (num_patches, d_model)

    # Add positional encoding
    patch_embeddings = patch_embeddings + params["pos"][1:]

    cls = params["cls"][None, :]
    return np.concatenate([cls, patch_embeddings], axis=0)  # (num_patches + 1, d_model)
