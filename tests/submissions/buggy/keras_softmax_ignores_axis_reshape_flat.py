"""Blind round 5 (b5_14, issue 38): softmax after the Keras code examples (tf.nn.softmax on the last
axis), linear_patch_embed with its own quick patch extraction.

Mistakes:
1. softmax: the axis argument is ignored, the softmax always runs over the last axis.
   Right for axis=-1 (and axis = ndim-1); shows only when another axis is asked for
   (axis=0 on a 2-D input, axis 0 or 1 of a batched 3-D input).
2. linear_patch_embed: patches made by image.reshape(-1, P*P*C) (no transpose: each "patch" is
   P*P*C consecutive pixels of the raster), then @ W_e + b_e. Shows whenever a patch row is
   narrower than the image (W > P).

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bare_reshape',
          'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on it


def softmax(x, axis=-1):
    """Softmax activation, as keras.activations.softmax."""
    x = np.asarray(x, dtype=float)
    z = x - np.max(x, axis=-1, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=-1, keepdims=True)


def linear_patch_embed(image, W_e, b_e, P):
    """Flatten the image into patches and project them."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    patches = image.reshape(-1, P * P * C)
    return patches @ W_e + b_e
