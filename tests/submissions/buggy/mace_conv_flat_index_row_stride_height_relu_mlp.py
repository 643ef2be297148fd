"""Blind round 61 (b61_13, issue 38): conv_patch_embed and encoder_block ported from XiaoMi/mace
`mace/ops/ref/conv_2d.cc` (Conv2d<float>::Compute: NCHW flattened planes, six nested loops, flat
index arithmetic) and `mace/ops/ref/activation.cc` (RELU). The student's top-level `_hwc` is nested
in conv_patch_embed and `activation` in encoder_block here: the builder replaces only the
solution's own definitions.

Mistakes:
20. conv_patch_embed (line 72 of the file as delivered): the flat input index
    `ih * in_height + iw` where the row stride is `in_width`. Wrong only when H != W (wrong
    values, or IndexError when H > W).
21. encoder_block (lines 116 and 123): the MLP's activation is MACE's RELU instead of GELU.
    Wrong on any input with negative or small pre-activations.

Grader: at blind time (90d6c97e) and now, 93/110. Mistake 21 named on encoder-block's two checks
("The MLP uses ReLU; ViT's MLP uses GELU ..."). Mistake 20 only observed on kernel-stride
(only_square_images: "Your `conv_patch_embed` is right when H == W, wrong for a 5 x 6 image: use
H and W each where they belong"; the equivalence property "failed on the inputs this property
gives it"); vit-checkpoint observes encoder_block. A hint would say that the flat input index
multiplies the row by `in_height` where the row stride is `in_width` (line 72). Being mended: not
every mistake named, so in unnamed/; EXPECT holds what must hold today: the points lost, no wrong
cause, mistake 21 still named.
Named since, in the same session (error_model/grid_sides.py, a flat index stepping rows by
the height): moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu',
          'kernel-stride': 'op:row_stride_from_height:conv_patch_embed:windows-row-stride-from-height'}


def conv_patch_embed(image, K, b, stride):
    def _hwc(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    x = _hwc(image).astype(np.float64)
    in_height, in_width, in_channels = x.shape
    kh_size, kw_size, _, out_channels = K.shape
    if kh_size > in_height or kw_size > in_width:
        raise ValueError("filter larger than input")
    out_height = (in_height - kh_size) // stride + 1
    out_width = (in_width - kw_size) // stride + 1
    input_data = x.transpose(2, 0, 1).ravel()          # NCHW, one plane per channel
    filter_data = K.transpose(3, 2, 0, 1).ravel()      # OIHW
    in_image_size = in_height * in_width
    filter_size = kh_size * kw_size
    output = np.zeros((out_height, out_width, out_channels))
    for m in range(out_channels):
        for h in range(out_height):
            for w in range(out_width):
                s = 0.0
                for c in range(in_channels):
                    in_base = c * in_image_size
                    f_base = m * in_channels * filter_size + c * filter_size
                    for kh in range(kh_size):
                        for kw in range(kw_size):
                            ih = h * stride + kh
                            iw = w * stride + kw
                            if 0 <= ih < in_height and 0 <= iw < in_width:
                                s += input_data[in_base + ih * in_height + iw] * filter_data[f_base + kh * kw_size + kw]
                output[h, w, m] = s + b[m]
    return output


def encoder_block(x, p, heads):
    def activation(x, type="RELU"):
        if type == "RELU":
            return np.maximum(0.0, x)
        raise ValueError(type)

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + activation(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
