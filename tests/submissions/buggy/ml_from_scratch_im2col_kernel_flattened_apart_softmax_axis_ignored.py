"""Blind round 31 (b31_01, issue 38): eriklindernoren/ML-From-Scratch,
mlfromscratch/deep_learning/layers.py (Conv2D.forward_pass with image_to_column,
get_im2col_indices, determine_padding, here nested in conv_patch_embed) and
activation_functions.py (Softmax), ported to the lab's API.

Mistakes:
1. conv_patch_embed: the im2col columns come in the source's (channel, row, col) order, but the
   kernel is flattened as `K.reshape(-1, d).T`, in (row, col, channel) order: a window's
   channels meet the kernel's rows. Wrong whenever C > 1 (right on grey images).
2. softmax: the source's Softmax hard-codes `axis=-1`; the `axis` argument is never read.
   Wrong for any other axis.

Grader: at blind time (fbf6cc7) and now, named: "`windows` and `K` are flattened each in its own
order ... Bring `windows`'s axes into the order 3, 4, 2" on kernel-stride (in the reference's
terms: the file has `X_col` and `W_col`; the cause is right; its equivalence check has the
spec's checklist); "In `softmax`, `axis` is taken as its default, -1, whatever is given" on
stable-softmax (its property check: the softmax_wrong_axis checklist). Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart',
          'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # stable-softmax's property: its checklist


def conv_patch_embed(image, K, b, stride):
    """Valid convolution through im2col (ML-From-Scratch Conv2D, padding='valid')."""

    def determine_padding(filter_shape, output_shape="same"):
        # No padding
        if output_shape == "valid":
            return (0, 0), (0, 0)
        # Pad so that the output shape is the same as input shape (given that stride=1)
        filter_height, filter_width = filter_shape
        pad_h1 = int(math.floor((filter_height - 1) / 2))
        pad_h2 = int(math.ceil((filter_height - 1) / 2))
        pad_w1 = int(math.floor((filter_width - 1) / 2))
        pad_w2 = int(math.ceil((filter_width - 1) / 2))
        return (pad_h1, pad_h2), (pad_w1, pad_w2)

    def get_im2col_indices(images_shape, filter_shape, padding, stride=1):
        batch_size, channels, height, width = images_shape
        filter_height, filter_width = filter_shape
        pad_h, pad_w = padding
        out_height = int((height + np.sum(pad_h) - filter_height) / stride + 1)
        out_width = int((width + np.sum(pad_w) - filter_width) / stride + 1)

        i0 = np.repeat(np.arange(filter_height), filter_width)
        i0 = np.tile(i0, channels)
        i1 = stride * np.repeat(np.arange(out_height), out_width)
        j0 = np.tile(np.arange(filter_width), filter_height * channels)
        j1 = stride * np.tile(np.arange(out_width), out_height)
        i = i0.reshape(-1, 1) + i1.reshape(1, -1)
        j = j0.reshape(-1, 1) + j1.reshape(1, -1)
        k = np.repeat(np.arange(channels), filter_height * filter_width).reshape(-1, 1)
        return (k, i, j)

    def image_to_column(images, filter_shape, stride, output_shape="same"):
        filter_height, filter_width = filter_shape
        pad_h, pad_w = determine_padding(filter_shape, output_shape)
        images_padded = np.pad(images, ((0, 0), (0, 0), pad_h, pad_w), mode="constant")
        k, i, j = get_im2col_indices(images.shape, filter_shape, (pad_h, pad_w), stride)
        cols = images_padded[:, k, i, j]
        channels = images.shape[1]
        cols = cols.transpose(1, 2, 0).reshape(filter_height * filter_width * channels, -1)
        return cols

    image = _as_hwc(image)
    height, width, channels = image.shape
    filter_height, filter_width, _, n_filters = K.shape
    if filter_height > height or filter_width > width:
        raise ValueError(f"kernel {filter_height} is larger than the {height}x{width} image")

    # the layer works on (batch_size, channels, height, width)
    X = image.transpose(2, 0, 1)[None]
    X_col = image_to_column(X, (filter_height, filter_width), stride=stride, output_shape="valid")
    # Turn weights into column shape
    W_col = K.reshape(-1, n_filters).T
    output = W_col.dot(X_col) + b.reshape(-1, 1)

    out_height = int((height - filter_height) / stride + 1)
    out_width = int((width - filter_width) / stride + 1)
    output = output.reshape(n_filters, out_height, out_width, 1)
    # (n_filters, H', W', batch) -> (H', W', n_filters) for our single image
    return output.transpose(3, 1, 2, 0)[0]


def softmax(x, axis=-1):
    """Softmax, as ML-From-Scratch's Softmax activation computes it."""
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / np.sum(e_x, axis=-1, keepdims=True)
