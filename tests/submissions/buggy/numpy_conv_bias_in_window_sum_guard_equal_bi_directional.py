"""Blind round 10 (b10_13, issue 38): a naive numpy convolution loop (CNN-from-scratch posts;
d2l corr2d) with the bias broadcast inside the window product, a >= guard, and a hyphenated
answer.

Mistakes:
1. conv_patch_embed: (window * K + b).sum(axis=(0, 1, 2)), the bias counted k*k*C times.
2. The guard raises ValueError when k equals H or W (valid: one output position). No check of
   the blind round had such a case.
3. ANSWERS["causal_mask"] = "bi-directional", not the option key "bidirectional".

Grader: the bias is observed (offset_rows: "the expected values plus 3 times `b` in every row",
k * k * C - 1 = 3 on the failing case); the answer is told it is not one of the options. Nothing named.
Since session 14 the answer is named (answer_spelt_unlike_option: 'bidirectional' spelt another
way).
Since session 17 both conv mistakes are named together (op:kernel_fit+op:bias_inside: the kernel
test `k >= H or k >= W` and the bias added inside the sum; `checks/kinds/refusals.py` pairs a
kernel test with the one value mistake that reproduces every value returned, checked on its
probe images too): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_fit:conv_patch_embed:as-large-refused+op:bias_inside:conv_patch_embed:b-inside-the-sum',
          'no-causal-mask': 'answer_spelt_unlike_option'}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation with explicit loops over output positions."""
    img = _as_hwc(image).astype(float)
    H, W, C = img.shape
    k = K.shape[0]
    if k >= H or k >= W:
        raise ValueError("kernel must be smaller than the image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    out = np.empty((H_out, W_out, K.shape[-1]))
    for i in range(H_out):
        for j in range(W_out):
            window = img[i * stride:i * stride + k, j * stride:j * stride + k, :, None]   # (k, k, C, 1)
            out[i, j] = (window * K + b).sum(axis=(0, 1, 2))
    return out


ANSWERS["causal_mask"] = "bi-directional"
