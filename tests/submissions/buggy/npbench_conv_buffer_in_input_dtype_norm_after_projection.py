"""Blind round 48 (b48_08, issue 38): conv_patch_embed ported from a JAX port of spcl/npbench's
`conv2d` ("Deep learning convolutional operator": `output = jnp.empty((N, H_out, W_out, C_out),
dtype=input.dtype)`, the loop `output[:, i, j, :] = sum(input[:, i:i+K, j:j+K, :, None] *
weights[None], axis=(1, 2, 3))`, NHWC with (K, K, C_in, C_out) weights; the stride and the bias
added, one image instead of a batch), and linear_patch_embed from a ViT whose patch embedding is
`nn.Linear(patch_dim, dim)` followed by `nn.LayerNorm(dim)`.

Mistakes:
1. linear_patch_embed standardises the projected patches, a LayerNorm (gain 1, shift 0) after
   the projection.
2. conv_patch_embed's output buffer is made with the input's dtype, `np.empty(..., dtype=
   input.dtype)`: a uint8 image's window sums are cut (and wrapped) to 8-bit integers before the
   bias is added.

Grader: at blind time (4b7c886d), mistake 1 named ("In `linear_patch_embed`, each row of
`linear(patchify(image, P), W_e, b_e)` is standardised, (x - mean) / sqrt(var + eps), before it
is returned (a LayerNorm without its gain and shift after the step, as lucidrains' ViT wraps its
patch embedding): the lecture returns it as it is."), mistake 2 only observed ("Your
`conv_patch_embed` is right for float images, wrong for a uint8 image (integer pixels, as a file
gives them), whose expected result is what the same pixels give as floats: look for a step that
treats integer pixels differently").
Now named: mistake 2 ("In `conv_patch_embed`, `np.tensordot(windows, K, axes=([3, 4, 2], [0, 1,
2]))` is written into a buffer made with `image`'s dtype (`out = np.empty(...,
dtype=image.dtype)` or `np.zeros_like`, filled in a loop) before `b` is added: right for a float
`image`, while for integer pixels (uint8, as a file gives them) each float sum is cast to that
integer dtype as numpy casts (the fraction dropped, a value outside its range not kept) before
`b` is added in floats. Make the buffer float.": dtypes.narrowed_before_bias).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:standardised_after:linear_patch_embed:standardised-after-linear',
          'kernel-stride': 'op:narrowed_before_bias:conv_patch_embed:b-added-after-image-dtype'}


def linear_patch_embed(image, W_e, b_e, P):
    x = patchify(image, P)
    x = x @ W_e + b_e                                      # projection
    d = x.shape[-1]
    return layer_norm(x, np.ones(d), np.zeros(d))          # norm


def conv_patch_embed(image, K, b, stride):
    input = _as_hwc(image)
    weights = np.asarray(K)
    K = weights.shape[0]  # Assuming square kernel
    if K > input.shape[0] or K > input.shape[1]:
        raise ValueError(f"kernel {K} is larger than the {input.shape[0]}x{input.shape[1]} image")
    H_out = (input.shape[0] - K) // stride + 1
    W_out = (input.shape[1] - K) // stride + 1
    C_out = weights.shape[3]
    output = np.empty((H_out, W_out, C_out), dtype=input.dtype)

    for i in range(H_out):
        for j in range(W_out):
            r, c = i * stride, j * stride
            output[i, j, :] = np.sum(
                input[r:r + K, c:c + K, :, np.newaxis] * weights,
                axis=(0, 1, 2),
            )

    return output + b
