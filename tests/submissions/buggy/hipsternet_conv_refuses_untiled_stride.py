"""Blind round 37 (b37_04, issue 38): wiseodd/hipsternet, hipsternet/layer.py (conv_forward) and
hipsternet/im2col.py (get_im2col_indices, im2col_indices). The student's top-level helpers are
nested in conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
1. `conv_patch_embed`: `h_out = (h_x - h_filter) / stride + 1`, and when it is not an integer
   it raises `Exception('Invalid output dimension!')`, where the lecture's floors (sizes need
   not tile).

Grader: at blind time (273cad6) and now, named on kernel-stride: "an image whose rows or columns
the stride leaves over ... is refused (an error is raised for it), where the lecture's floors".
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:guarded:conv_patch_embed:windows-must-fit'}


def conv_patch_embed(image, K, b, stride):
    def get_im2col_indices(x_shape, field_height, field_width, padding=1, stride=1):
        # First figure out what the size of the output should be
        N, C, H, W = x_shape
        out_height = int((H + 2 * padding - field_height) / stride + 1)
        out_width = int((W + 2 * padding - field_width) / stride + 1)

        i0 = np.repeat(np.arange(field_height), field_width)
        i0 = np.tile(i0, C)
        i1 = stride * np.repeat(np.arange(out_height), out_width)
        j0 = np.tile(np.arange(field_width), field_height * C)
        j1 = stride * np.tile(np.arange(out_width), out_height)
        i = i0.reshape(-1, 1) + i1.reshape(1, -1)
        j = j0.reshape(-1, 1) + j1.reshape(1, -1)

        k = np.repeat(np.arange(C), field_height * field_width).reshape(-1, 1)
        return (k.astype(int), i.astype(int), j.astype(int))

    def im2col_indices(x, field_height, field_width, padding=1, stride=1):
        """An implementation of im2col based on some fancy indexing."""
        p = padding
        x_padded = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), mode='constant')
        k, i, j = get_im2col_indices(x.shape, field_height, field_width, padding, stride)
        cols = x_padded[:, k, i, j]
        C = x.shape[1]
        cols = cols.transpose(1, 2, 0).reshape(field_height * field_width * C, -1)
        return cols

    image = _as_hwc(image)
    X = image.transpose(2, 0, 1)[None]          # (1, C, H, W)
    W = np.transpose(K, (3, 2, 0, 1))            # (n_filters, d_filter, h_filter, w_filter)
    padding = 0

    n_filters, d_filter, h_filter, w_filter = W.shape
    n_x, d_x, h_x, w_x = X.shape
    if h_filter > h_x or w_filter > w_x:
        raise ValueError("kernel larger than the image")
    h_out = (h_x - h_filter + 2 * padding) / stride + 1
    w_out = (w_x - w_filter + 2 * padding) / stride + 1

    if not h_out.is_integer() or not w_out.is_integer():
        raise Exception('Invalid output dimension!')

    h_out, w_out = int(h_out), int(w_out)

    X_col = im2col_indices(X, h_filter, w_filter, padding=padding, stride=stride)
    W_col = W.reshape(n_filters, -1)

    out = W_col @ X_col + b.reshape(-1, 1)
    out = out.reshape(n_filters, h_out, w_out, n_x)
    out = out.transpose(3, 0, 1, 2)             # (N, F, H', W')

    return out[0].transpose(1, 2, 0)
