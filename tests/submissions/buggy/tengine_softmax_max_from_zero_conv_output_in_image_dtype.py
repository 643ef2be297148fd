"""Blind round 60 (b60_10, issue 38): softmax and conv_patch_embed ported from OAID/Tengine
`source/device/cpu/op/softmax/softmax_ref.c` (GetMaxArray's `memset(array, 0, ...)`, ref_softmax)
and `source/device/cpu/op/conv/conv_ref.c` (the reference direct convolution). The student's
top-level `GetMaxArray` is nested in softmax and `_input_hwc` in conv_patch_embed here: the builder
replaces only the solution's own definitions.

Mistakes:
17. softmax (line 92 of the file as delivered, GetMaxArray): the running maximum starts at 0, so
    the shift is max(0, max x). Wrong only when a whole slice is far below zero (`-1000 + randn`):
    every exp underflows, 0/0 = NaN. Ordinary inputs are right.
18. conv_patch_embed (line 66): the output buffer takes the input's dtype (`dtype=input.dtype`).
    Wrong only for integer images (uint8): the float sums are truncated and wrapped.

Grader: at blind time (528b2ec3) and now, 104/110, both named. Mistake 17 on stable-softmax's
overflow and random checks ("In `softmax`, the max subtracted before exp is floored at 0 ... (a
running max started at 0 instead of -inf ...)"). Mistake 18 on kernel-stride's value check ("In
`conv_patch_embed`, the result takes `image`'s dtype ... Make the output float."). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype',
          'stable-softmax': 'op:max_floored:softmax:max-floored=0'}


def conv_patch_embed(image, K, b, stride):
    def _input_hwc(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image.reshape(image.shape[0], image.shape[1], 1)
        if image.ndim != 3:
            raise ValueError("input dims must be 2 or 3")
        return image

    input = _input_hwc(image)
    in_h, in_w, in_c = input.shape
    kernel_h, kernel_w, _, out_c = K.shape
    if kernel_h > in_h or kernel_w > in_w:
        raise ValueError("kernel larger than input")
    stride_h = stride_w = stride
    out_h = (in_h - kernel_h) // stride_h + 1
    out_w = (in_w - kernel_w) // stride_w + 1
    output = np.zeros((out_h, out_w, out_c), dtype=input.dtype)
    for oc in range(out_c):
        for oh in range(out_h):
            for ow in range(out_w):
                h_start = oh * stride_h
                w_start = ow * stride_w
                total = 0.0
                for kh in range(kernel_h):
                    for kw in range(kernel_w):
                        for ic in range(in_c):
                            total += float(input[h_start + kh, w_start + kw, ic]) * K[kh, kw, ic, oc]
                total += b[oc]
                output[oh, ow, oc] = total
    return output


def softmax(x, axis=-1):
    def GetMaxArray(input, array, in_size, on_size):
        array[:] = 0
        for j in range(on_size):
            for l in range(in_size):
                if array[l] < input[j * in_size + l]:
                    array[l] = input[j * in_size + l]

    x = np.asarray(x, dtype=np.float64)
    dims = x.shape
    if axis < 0:
        axis += len(dims)
    out_size = int(np.prod(dims[:axis]))
    on_size = dims[axis]
    in_size = int(np.prod(dims[axis + 1:]))
    on_in_size = on_size * in_size

    input = x.reshape(-1)
    output = np.empty_like(input)
    max_array = np.empty(in_size)
    sum_array = np.empty(in_size)
    for i in range(out_size):
        img_base = i * on_in_size
        GetMaxArray(input[img_base:], max_array, in_size, on_size)
        sum_array[:] = 0
        for j in range(on_size):
            for l in range(in_size):
                offset = img_base + j * in_size + l
                output[offset] = math.exp(input[offset] - max_array[l])
                sum_array[l] += output[offset]
        for j in range(on_size):
            for l in range(in_size):
                offset = img_base + j * in_size + l
                output[offset] /= sum_array[l]
    return output.reshape(dims)
