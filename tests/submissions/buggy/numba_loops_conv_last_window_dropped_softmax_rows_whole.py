"""Blind round 26 (b26_07, issue 38): conv_patch_embed and softmax written as Numba-style
explicit-loop kernels (a direct convolution over `range(0, H - k, stride)`; a softmax looping over
the rows x[i]).

Mistakes:
1. conv_patch_embed starts its windows at `range(0, H - k, stride)`, not `range(0, H - k + 1,
   stride)`: the last window is dropped, one output row and column short.
2. softmax normalises each x[i] as a whole, whatever `axis` is: right only for 2-D input along
   the last axis (1-D input gives all ones; 3-D input and axis=0 are wrong).

Grader: at blind time the window was named and the softmax only observed (1-D input "returns the
same value, 1, in every position"; the hidden check had no hint). Now both named: the last window
dropped on kernel-stride (the kernel-P stride-P check gives its checklist); on stable-softmax, the
max and the sum run over every axis but the first whatever the axis (fused.all_but_first, since
9246340: one slip at two places, the sum alone on the overflow check; the property check gives
its checklist); vit-checkpoint observes the broken softmax. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_last_window_dropped',
          'stable-softmax': 'op:all_but_first:softmax:sum.axis-all-but-first'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    k, _, C, d = K.shape
    H, W, _ = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    rows = range(0, H - k, stride)
    cols = range(0, W - k, stride)
    out = np.zeros((len(rows), len(cols), d))
    for oi, i in enumerate(rows):
        for oj, j in enumerate(cols):
            window = image[i:i + k, j:j + k, :]
            for o in range(d):
                out[oi, oj, o] = np.sum(window * K[:, :, :, o]) + b[o]
    return out


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        m = x[i].max()
        e = np.exp(x[i] - m)
        out[i] = e / e.sum()
    return out
