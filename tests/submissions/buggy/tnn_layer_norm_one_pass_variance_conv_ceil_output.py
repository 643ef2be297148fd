"""Blind round 61 (b61_09, issue 38): layer_norm and conv_patch_embed ported from Tencent/TNN
`source/tnn/device/cpu/acc/cpu_layer_norm_layer_acc.cc` (Forward: sum_x, sum_x2, channel_area, the
k_data / b_data folding) and `cpu_conv_layer_acc.cc` (the output size in ceil mode). The
student's top-level `_hwc` is nested in conv_patch_embed here: the builder replaces only the
solution's own definitions.

Mistakes:
14. layer_norm (lines 96-101 of the file as delivered): the one-pass variance
    `E[x^2] - E[x]^2`, which cancels catastrophically far from zero (offset 1e4 with spread
    0.01, or 1e8: wrong, even a negative variance and nan). Right near zero.
15. conv_patch_embed (lines 62-63): the output size `ceil((H - k) / stride) + 1` (ceil mode)
    instead of floor. Wrong only when stride does not divide H - k or W - k: an extra, short
    last window, whose slice makes `np.tensordot` (line 71) raise numpy's "ValueError:
    shape-mismatch for sum".

Grader: at blind time (90d6c97e) and now, 105/110. Mistake 14 named on layer-norm's shift
property ("Your `layer_norm` takes the variance in one pass, mean(x**2) - mean(x)**2 ...").
Mistake 15 named only partly, with a WRONG cause, on kernel-stride's two failed checks ("In
`conv_patch_embed`, the test that the kernel fits the image tests that the windows fit exactly,
`(H - k) % stride or (W - k) % stride`: a stride that leaves rows or columns over is refused ...",
op:kernel_fit:conv_patch_embed:windows-fit-exactly): the code has no such test (its only fit test,
line 60, `kernel_y > height or kernel_x > width`, is right); numpy's ValueError from the short
window was taken for a deliberate refusal. Only the fix it gives (floor) is right. That wrong
refusal hint is being mended: kernel-stride's expectation is None here, and this file's test of
"no wrong cause" fails until the mend is merged (the wrong hint is not listed in ALIASES: it is
not this file's mistake). A hint would say the output size rounds up, adding a last, partial
window. Not every mistake named, so in unnamed/; EXPECT holds what must hold today: the points
lost, mistake 14 still named.
Named since, in the same session (error_model/grid_end.py, the grid rounded up; the wrong
refusal hint gone: a test of exact fit is named only on the student's own raise): moved from
unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:grid_rounded_up:conv_patch_embed:windows-grid-rounded-up',
          'layer-norm': 'layer_norm_one_pass_variance'}


def conv_patch_embed(image, K, b, stride):
    def _hwc(image):
        a = np.asarray(image)
        if a.ndim == 2:
            a = a.reshape(a.shape + (1,))
        if a.ndim != 3:
            raise ValueError("invalid dims for input blob")
        return a

    input_data = _hwc(image).astype(np.float64)
    height, width, ic = input_data.shape
    kernel_y, kernel_x, _, oc = K.shape
    if kernel_y > height or kernel_x > width:
        raise ValueError("kernel larger than input")
    output_height = int(math.ceil((height - kernel_y) / stride)) + 1
    output_width = int(math.ceil((width - kernel_x) / stride)) + 1
    output_data = np.zeros((output_height, output_width, oc))
    for oh in range(output_height):
        for ow in range(output_width):
            ih = oh * stride
            iw = ow * stride
            for c in range(ic):
                window = input_data[ih:ih + kernel_y, iw:iw + kernel_x, c]
                output_data[oh, ow, :] += np.tensordot(window, K[:, :, c, :], axes=([0, 1], [0, 1]))
            output_data[oh, ow, :] += b
    return output_data


def layer_norm(x, gamma, beta, eps=1e-6):
    input_data = np.asarray(x, dtype=np.float64)
    channel_area = input_data.shape[-1]
    sum_x = np.sum(input_data, axis=-1, keepdims=True)
    sum_x2 = np.sum(input_data * input_data, axis=-1, keepdims=True)
    mean_x = sum_x / channel_area
    mean_x2 = sum_x2 / channel_area
    variance = mean_x2 - mean_x * mean_x
    variance = 1.0 / np.sqrt(variance + eps)
    k = gamma
    bias = beta - mean_x * variance * k
    return input_data * variance * k + bias
