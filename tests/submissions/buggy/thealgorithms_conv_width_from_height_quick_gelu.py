"""Blind round 60 (b60_03, issue 38): conv_patch_embed and encoder_block ported from
TheAlgorithms/Python `neural_network/convolution_neural_network.py` (CNN.convolute's
`size_data = np.shape(data)[0]`) and `neural_network/activation_functions/
gaussian_error_linear_unit.py` (the older `vector * sigmoid(1.702 * vector)`). The student's
top-level `sigmoid` and `gaussian_error_linear_unit` are nested in encoder_block here: the builder
replaces only the solution's own definitions.

Mistakes:
5. encoder_block, inside the MLP (lines 123-130 of the file as delivered): the activation is
   `gaussian_error_linear_unit = x * sigmoid(1.702 x)`, neither the exact erf GELU nor the tanh
   form (up to about 0.02 apart). Wrong on any input to encoder_block and vit_forward.
6. conv_patch_embed (line 50 and the two loops after it): convolute's `size_data =
   np.shape(data)[0]` assumes a square image: both loops and the `(size_feature_map,
   size_feature_map)` reshape use H. Wrong only when H != W: W > H gives a truncated output,
   H > W a broadcasting ValueError.

Grader: at blind time (528b2ec3) and now, 93/110, both named. Mistake 5 on encoder-block's two
checks ("In `encoder_block` (at the model solution's step `mlp(...)`), the activation is CLIP's
quick GELU, x * sigmoid(1.702 x) ..."); vit-forward keeps full marks around it; vit-checkpoint
observes encoder_block. Mistake 6 on kernel-stride's value and random checks ("In
`conv_patch_embed`, the columns of the output are counted from H, `(H - k) // stride + 1`, where
`(W - k) // stride + 1` belongs ..."); its "kernel P, stride P" property gives its checklist.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'encoder-block': 'op:activation:encoder_block/mlp:act=quick_gelu'}


def conv_patch_embed(image, K, b, stride):
    data = np.asarray(image)
    if data.ndim == 2:
        data = data[:, :, None]
    size_conv = K.shape[0]
    num_conv = K.shape[3]
    conv_step = stride
    if size_conv > data.shape[0] or size_conv > data.shape[1]:
        raise ValueError("kernel is larger than the image")
    size_data = np.shape(data)[0]
    # get the data slice of original image data, data_focus
    data_focus = []
    for i_focus in range(0, size_data - size_conv + 1, conv_step):
        for j_focus in range(0, size_data - size_conv + 1, conv_step):
            focus = data[i_focus : i_focus + size_conv, j_focus : j_focus + size_conv]
            data_focus.append(focus)
    # calculate the feature map of every single kernel
    size_feature_map = int((size_data - size_conv) / conv_step + 1)
    data_featuremap = []
    for i_map in range(num_conv):
        featuremap = []
        for i_focus in range(len(data_focus)):
            net_focus = np.sum(np.multiply(data_focus[i_focus], K[:, :, :, i_map])) + b[i_map]
            featuremap.append(net_focus)
        featuremap = np.asarray(featuremap).reshape(size_feature_map, size_feature_map)
        data_featuremap.append(featuremap)
    return np.stack(data_featuremap, axis=-1)


def encoder_block(x, p, heads):
    def sigmoid(vector):
        return 1 / (1 + np.exp(-vector))

    def gaussian_error_linear_unit(vector):
        return vector * sigmoid(1.702 * vector)

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = gaussian_error_linear_unit(h @ p["W1"] + p["b1"])
    return x + h @ p["W2"] + p["b2"]
