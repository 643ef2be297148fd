"""Blind round 9 (b9_04, issue 38): a submission written in the style of the cs231n numpy
assignments.

Mistakes:
1. softmax: the stabilising shift is done in place, `x -= np.max(x, axis, keepdims=True)`,
   so the caller's array is modified. Returned values are right. Shows only when the
   caller uses its input array again after the call (float arrays).
   Sources: frank690/sffresch-code softmax (`z -= np.max(z, axis=1, keepdims=True)  # for
   numeric stability`); cs231n softmax_loss_vectorized solutions with `scores -= ...`.
2. conv_patch_embed: one output size for both axes, `out_size = 1 + (H - HH) // stride`
   (CIFAR images are square). Shows only on non-square images: W > H truncates columns,
   W < H raises a shape error.
   Sources: cs231n conv_forward_naive (e.g. Clarence-G/learngit cs231n/assignment2/conv1.py
   computes H_new and W_new separately); lucidrains/vit-pytorch issues #61/#104 and
   faustomorales/vit-keras issue #18 (square-only assumptions).

Grader: the window count is named (op:window_count: "the columns of the output are counted from
H"; the property check crashes and says so). The in-place shift was only observed, exactly, until session 13
("Change no array `softmax` is given in place ... `x = x - m`, not `x -= m`").
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H',
          'stable-softmax': 'changes_input_in_place'}


def conv_patch_embed(image, K, b, stride):
    """A naive implementation of the forward pass for a convolutional layer (channels last)."""
    x = _as_hwc(image)
    H, W, C = x.shape
    HH, WW, _, F = K.shape
    if HH > H or WW > W:
        raise ValueError(f"kernel {HH} is larger than the {H}x{W} image")
    out_size = 1 + (H - HH) // stride
    out = np.zeros((out_size, out_size, F))
    for i in range(out_size):
        for j in range(out_size):
            window = x[i * stride:i * stride + HH, j * stride:j * stride + WW, :]
            out[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return out


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`."""
    x -= np.max(x, axis=axis, keepdims=True)   # shift for numeric stability
    exp_x = np.exp(x)
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)
