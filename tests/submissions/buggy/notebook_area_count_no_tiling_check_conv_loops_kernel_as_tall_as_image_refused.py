"""Blind round 49 (b49_02, issue 38): num_patches from a ViT markdown notebook (code-search id
6451338506: `number_patches = int((height * width) / (patch_size**2))`), conv_patch_embed from
piotrfilipiuk/ai-lab conv.py (`conv_2d`: nested loops, "no padding"), with the stride, the
channels (`pixel @ K[ki][kj]`) and the bias added.

Mistakes:
1. num_patches has no tiling check: `int(H*W/P**2)` never raises (num_patches(10, 12, 4) is 7,
   num_tokens 8, where the solution raises ValueError).
2. conv_patch_embed's size guard is too strict: it raises when `k >= H or k >= W`, so a kernel as
   tall or as wide as the image (k == min(H, W)) is refused although it fits.

Grader: at blind time (7e618553), both named: mistake 1 on patch-count ("2 mistakes at once: (1)
In `num_patches`, there is no tiling test: it refuses no size: a 30 x 32 image with P = 16 gets a
count. ... (2) In `num_patches`, the patches are counted by area, `H * W // (P * P)` ..."),
mistake 2 on kernel-stride ("In `conv_patch_embed`, the test that the kernel fits the image tests
`k >= H or k >= W`: a kernel as tall or as wide as the image is refused, although it fits (one
window). A valid convolution refuses only a kernel taller or wider than the image: refuse only
`k > H or k > W`."). The same names now; part (2) of patch-count's hint now reads "... the two
agree where P divides both sides, and elsewhere only where the pixels the whole patches leave
over add up to less than one patch (a 6x6 image with P = 4 counts 2 by area, 1 by rows and
columns).". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'kernel-stride': 'op:kernel_fit:conv_patch_embed:as-large-refused'}


def num_patches(H, W, P):
    number_patches = int((H * W) / (P**2))
    return number_patches


def conv_patch_embed(image, K, b, stride):
    arr = _as_hwc(image)
    arr_height, arr_width, channels = arr.shape
    kernel_height, kernel_width, _, d = K.shape
    if kernel_height >= arr_height or kernel_width >= arr_width:
        raise ValueError(f"kernel {kernel_height}x{kernel_width} does not fit a {arr_height}x{arr_width} image")

    # no padding
    out_height = (arr_height - kernel_height) // stride + 1
    out_width = (arr_width - kernel_width) // stride + 1
    out = [[None for _ in range(out_width)] for _ in range(out_height)]

    for i in range(out_height):
        for j in range(out_width):
            dot_prod = np.zeros(d)
            for ki in range(kernel_height):
                for kj in range(kernel_width):
                    dot_prod += arr[i * stride + ki][j * stride + kj] @ K[ki][kj]
            out[i][j] = dot_prod + b
    return np.array(out)
