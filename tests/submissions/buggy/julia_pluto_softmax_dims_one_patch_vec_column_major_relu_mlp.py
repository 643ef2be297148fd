"""Blind round 36 (b36_03, issue 38): softmax, patchify and encoder_block ported from
qsimeon/julia_class_project, project.jl (a Pluto notebook: softmax(x; dims=1),
extract_patches + vec(patch) per channel in PatchEmbedLinear, FeedForwardNetwork with max.(0, X)).

Mistakes:
1. softmax's default axis is 0 (Julia's dims=1): a 2-D call that leaves axis out normalises
   the columns.
2. patchify flattens each patch per channel in column-major (vec) order: (c, p2, p1) instead of
   (p1, p2, c).
3. encoder_block's MLP uses ReLU instead of GELU.

Grader: at blind time (9ebbf4a) and now, all three named: softmax's default axis 0 on
stable-softmax, the column-major transpose on patchify, "The MLP uses ReLU" on encoder-block.
In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-0',
          'patchify': 'op:axes_swapped:patchify:transpose-0-2-4-3-1',
          'encoder-block': 'encoder_relu'}


def patchify(image, P):
    """extract_patches per channel, then vec(patch) for every patch, as PatchEmbedLinear does."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)

    def extract_patches(image_square, patch_size):
        patches = []
        for i in range(0, image_square.shape[0], patch_size):
            for j in range(0, image_square.shape[1], patch_size):
                patch = image_square[i:i + patch_size, j:j + patch_size]
                patches.append(patch)
        return patches

    channels = []
    for c in range(C):
        channel_matrix = image[:, :, c]
        patches = extract_patches(channel_matrix, P)
        # vec(patch): Julia flattens column by column
        patch_matrix = np.stack([patch.flatten(order="F") for patch in patches])  # (num_patches, P^2)
        channels.append(patch_matrix)
    return np.concatenate(channels, axis=1)


def softmax(x, axis=0):
    """Stable softmax implementation (softmax(x; dims=1) in the Julia notebook)."""
    exp_x = np.exp(x - np.max(x, axis=axis, keepdims=True))  # stability trick
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def encoder_block(x, p, heads):
    """AttentionResidual: X .+ attn(X), then X .+ ffn(X), with the pre-LN of the lecture."""

    def feed_forward(X):
        X = X @ p["W1"] + p["b1"]      # Shape: (N, n_hidden)
        X = np.maximum(0, X)           # activation
        return X @ p["W2"] + p["b2"]   # Shape: (N, dim)

    X = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    X = X + feed_forward(layer_norm(X, p["ln2_g"], p["ln2_b"]))
    return X
