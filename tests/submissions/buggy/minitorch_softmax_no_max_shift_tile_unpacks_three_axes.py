"""Blind round 29 (b29_09, issue 38): ported from MiniTorch (Sasha Rush, minitorch module 4: nn.py
`tile(input, kernel)` with `batch, channel, height, width = input.shape`, and
`softmax(input, dim)`: e = input.exp(); partition = e.sum(dim); return e / partition). The
student's top-level helper `tile` is nested in patchify here: the builder replaces only the
solution's own definitions.

Mistakes:
1. softmax has no max subtraction: exp overflows for inputs near 1000 (inf / inf = NaN). Right
   on moderate inputs of any shape and axis.
2. patchify unpacks `height, width, channel = np.shape(image)`, so a 2-D (H, W) image raises
   ValueError instead of being one channel. 3-D images are right.

Grader: at blind time and now, named: "exp overflowed ... Subtract the maximum along the axis
first" (softmax_without_max) on stable-softmax; "a 2-D (H, W) `image` is read as it is, with no
channel axis (... or its shape unpacked into H, W, C)" on patchify. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:not_promoted:patchify:image-2d-not-promoted',
          'stable-softmax': 'softmax_without_max'}


def patchify(image, P):
    def tile(input, kernel):
        """minitorch.nn.tile, but the patch laid out as (kh, kw, channel) for this lab."""
        batch, channel, height, width = input.shape
        kh, kw = kernel
        assert height % kh == 0
        assert width % kw == 0
        new_height = height // kh
        new_width = width // kw
        out = input.reshape(batch, channel, new_height, kh, new_width, kw)
        out = out.transpose(0, 2, 4, 3, 5, 1)
        out = out.reshape(batch, new_height * new_width, kh * kw * channel)
        return out, new_height, new_width

    height, width, channel = np.shape(image)
    num_patches(height, width, P)
    x = np.asarray(image).transpose(2, 0, 1)[None]      # (1, C, H, W)
    out, _, _ = tile(x, (P, P))
    return out[0]


def softmax(x, axis=-1):
    """minitorch.nn.softmax: e / e.sum(dim)."""
    e = np.exp(x)
    partition = e.sum(axis=axis, keepdims=True)
    return e / partition
