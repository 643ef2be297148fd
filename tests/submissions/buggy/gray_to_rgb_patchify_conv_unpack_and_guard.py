"""Blind round 7 (b7_12, issue 38): patchify that turns a gray image into RGB, and a loop
conv_patch_embed that unpacks (H, W, C) and guards the kernel size with `and`.

Mistakes:
1. conv_patch_embed: `H, W, C = image.shape` with no 2-D promotion: a 2-D (gray) image raises
   ValueError (not enough values to unpack). Shows only for 2-D images.
2. conv_patch_embed: the size check is `k > H and k > W` instead of `or`: a kernel larger than
   one side only is not rejected; with H < k <= H + stride (e.g. 3x6 image, k=4) it returns an
   empty (0, W', d) array instead of raising. Shows only on non-square images.
3. patchify: a 2-D (gray) image is turned into RGB by stacking it 3 times (the usual
   `img.convert("RGB")` step of pretrained pipelines), so its patches have 3*P*P numbers. Shows
   only for 2-D images.

Grader: in the blind round the two gray mistakes were observed (only_3d_images: "right for
(H, W, C) images, wrong for a 2-D (H, W) one"); both are named since (inputs.gray_to_rgb,
inputs.not_promoted). The worked example gets its flatten-order checklist. The `and` was told,
until 917c36bb, "nothing tests that the kernel fits the image" (kernel_fit.py's kernel-untested:
the check's cases hold kernels larger than one side only, where `and` refuses nothing), of code
with a test of its own; since then a probe of a kernel larger than both sides, which its own
raise refuses, rules that out, and the check gets the observation "returned an empty array of
shape (0, 3, 2) (no window fits) for a 3x3 kernel on a 2-pixel-high image (and on 1 other such
case), where it must raise ValueError: test that the kernel fits both sides (k <= H and k <= W)
before sliding".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:gray_to_rgb:patchify:image-2d-as-rgb',
          'kernel-stride': 'op:not_promoted:conv_patch_embed:image-2d-not-promoted'}


def patchify(image, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)        # gray -> RGB
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    H, W, C = image.shape
    num_patches(H, W, P)
    rows = []
    for i in range(0, H, P):
        for j in range(0, W, P):
            rows.append(image[i:i + P, j:j + P, :].reshape(-1))
    return np.stack(rows)


def conv_patch_embed(image, K, b, stride):
    H, W, C = image.shape                      # channels-last
    k, _, _, d = K.shape
    if k > H and k > W:
        raise ValueError("kernel larger than the image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.empty((Ho, Wo, d))
    for i in range(Ho):
        for j in range(Wo):
            patch = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.einsum("abc,abcd->d", patch, K) + b
    return out
