"""Blind round 75 (b75_01, issue 38): patchify and conv_patch_embed ported from
harshaygadekar/dl-from-scratch `Module 02-CNNs/Topic 11-Conv2D-Sliding-Window/solutions/level01_naive.py`
(six nested loops, channels-first, `calculate_output_size`, "Step n" comments).

Mistakes:
1. patchify (lines 84-85 of the file as delivered): each patch sliced from the channels-first
   array (`x[:, ...]`, (C, P, P)) and flattened (c, p1, p2) instead of (p1, p2, c). Wrong with
   C > 1 only (gray images and the worked example pass).
2. conv_patch_embed (line 114 on): no `k > H or k > W` test; the size comes from
   `(H - k)//stride + 1`, so where that is 0 (k = H + 1, stride 1) an empty (0, W', d) array comes
   back instead of ValueError (a negative size raises numpy's ValueError).
The delivered file's top-level helpers `to_channels_first` and `calculate_output_size` are
nested in the functions here.

Grader: at blind time (db1f63a6) and now, 99/110. Mistake 1 named on patchify ("You
flattened each patch channel first, (c, p1, p2) ..."), mistake 2 on kernel-stride ("In
`conv_patch_embed`, nothing tests that the kernel fits the image ..."). Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'}


def patchify(image, P):
    """
    Cut the image into P x P patches, raster order, one flattened patch per row.

    Args:
        image: (H, W, C) or (H, W)
        P: patch size

    Returns:
        patches: (N, P*P*C)
    """
    def to_channels_first(image):
        """
        (H, W) -> (1, H, W) and (H, W, C) -> (C, H, W).
        """
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            return image[None, :, :]
        if image.ndim == 3:
            return image.transpose(2, 0, 1)
        raise ValueError(f"expected a 2-D or 3-D image, got shape {image.shape}")
    x = to_channels_first(image)
    C, H, W = x.shape
    N = num_patches(H, W, P)

    patches = np.zeros((N, C * P * P))
    n = 0
    for i in range(H // P):  # Iterate over patch rows
        for j in range(W // P):  # Iterate over patch columns
            patch = x[:, i * P:(i + 1) * P, j * P:(j + 1) * P]  # (C, P, P)
            patches[n] = patch.reshape(-1)
            n += 1
    return patches


def conv_patch_embed(image, K, b, stride):
    """
    2D convolution using explicit nested loops (valid, no padding).

    Args:
        image: (H, W, C) or (H, W)
        K: (k, k, C_in, C_out) kernel
        b: (C_out,) bias
        stride: step size for the sliding window

    Returns:
        output: (H_out, W_out, C_out)
    """
    def calculate_output_size(H, K, P, S):
        """
        Calculate output spatial dimension.

        Formula: H_out = floor((H - K + 2*P) / S) + 1

        Args:
            H: Input height (or width)
            K: Kernel size
            P: Padding
            S: Stride

        Returns:
            Output height (or width)
        """
        return (H - K + 2 * P) // S + 1

    def to_channels_first(image):
        """
        (H, W) -> (1, H, W) and (H, W, C) -> (C, H, W).
        """
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            return image[None, :, :]
        if image.ndim == 3:
            return image.transpose(2, 0, 1)
        raise ValueError(f"expected a 2-D or 3-D image, got shape {image.shape}")
    x = to_channels_first(image)
    C_in, H, W = x.shape
    k = K.shape[0]
    C_out = K.shape[3]
    weight = np.asarray(K, dtype=float).transpose(3, 2, 0, 1)  # (C_out, C_in, k, k)

    # Step 1: Calculate output dimensions
    H_out = calculate_output_size(H, k, 0, stride)
    W_out = calculate_output_size(W, k, 0, stride)

    # Step 2: Initialize output array
    output = np.zeros((H_out, W_out, C_out))

    # Step 3: Nested loops for convolution
    for c_out in range(C_out):  # Iterate over output channels
        for h_out in range(H_out):  # Iterate over output height
            for w_out in range(W_out):  # Iterate over output width
                accum = 0.0
                for c_in in range(C_in):  # Iterate over input channels
                    for kh in range(k):  # Iterate over kernel height
                        for kw in range(k):  # Iterate over kernel width
                            h_in = h_out * stride + kh
                            w_in = w_out * stride + kw
                            accum += x[c_in, h_in, w_in] * weight[c_out, c_in, kh, kw]
                output[h_out, w_out, c_out] = accum + b[c_out]
    return output
