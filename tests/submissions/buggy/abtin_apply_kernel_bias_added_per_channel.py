"""Blind round 70 (b70_11, issue 38): conv_patch_embed (with its `applyKernel` and
`applyKernel2Layers` helpers) ported from AbtinParvinroo/Abtin `kernel.py`
(sliding_window_view + einsum 'ijkl,kld->ijd' per channel, a loop over the channels).

Mistakes:
1. applyKernel2Layers (line 60 of the file as delivered), called by conv_patch_embed: the bias is
   passed to each per-channel applyKernel, so it is added C times. Right for one channel or
   b = 0; wrong for C > 1 with a non-zero bias.

Grader: at blind time (3f040026) and now, 104/110, named on kernel-stride ("`b` is added once for
each index of axis 2 of `windows` that is summed (as in a loop over the input channels, `out +=
conv(x[..., c], K[..., c]) + b`) ...: add it once, after the sum"; the kernel/stride equivalence
check adds the checklist). Every mistake named, so in buggy/. Judged borderline on two details:
the hint says "In `conv_patch_embed`", where the delivered file's loop is in its own helper
`applyKernel2Layers` (here nested in conv_patch_embed); and "axis 2 of `windows`" is of the
model solution's layout, the student's own `windows` (in applyKernel) being (h', w', kh, kw),
whose axis 2 is the kernel row (in the case shown kh = C = 3, so the count agrees).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:bias_inside:conv_patch_embed:b-once-per-windows-axis2'}


def conv_patch_embed(image, K, b, stride):
    def _layers(image):
        layers = np.asarray(image, dtype=np.float64)
        if layers.ndim == 2:
            layers = layers[:, :, None]
        if layers.ndim != 3:
            raise ValueError("expected (h, w) or (h, w, c)")
        return layers

    def applyKernel(img, kernel, bias, stride):
        # img (h, w), kernel (kh, kw, d) -> (h', w', d)
        kh, kw, _ = kernel.shape
        windows = np.lib.stride_tricks.sliding_window_view(img, (kh, kw))[::stride, ::stride]
        return np.einsum('ijkl,kld->ijd', windows, kernel) + bias

    def applyKernel2Layers(layers, kernel, bias, stride):
        h, w, c = layers.shape
        output = 0
        for i in range(c):
            output = output + applyKernel(layers[:, :, i], kernel[:, :, i, :], bias, stride)
        return output

    layers = _layers(image)
    k = K.shape[0]
    if k > layers.shape[0] or k > layers.shape[1]:
        raise ValueError("kernel does not fit")
    return applyKernel2Layers(layers, K, b, stride)
