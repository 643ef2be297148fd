"""Blind round 74 (b74_11, issue 38): conv_patch_embed ported from
Ishushan02/Cervical-Cancer-Detection-Using-Vision-Transformer `patchEmbedding.py` (a Conv2d
projection).

Mistakes:
1. conv_patch_embed (line 62 of the file as delivered): the output's size uses the stride, but
   each window starts at (i, j) instead of (i * stride, j * stride). Right for stride 1 only;
   with kernel = stride = P it is not the linear map.
The delivered file's top-level helper toHWC is nested in conv_patch_embed here.

Grader: at blind time (997839b5) and now, 104/110 with scipy, as the tests run (the delivered
file's `gelu` imports `scipy.special.erf`; the judge's venv had no scipy and gave 93, the 11
points of encoder-block and vit-checkpoint lost to the NameError, which the grader named as
such). Mistake 1 named on kernel-stride ("the stride sets the output's size but not where each
window starts (`i:i + k` where `i * stride:i * stride + k` belongs)"), with the kernel-P check's
checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stride:conv_patch_embed:windows-unstrided'}


def conv_patch_embed(image, K, b, stride):
    def toHWC(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    image = toHWC(image)
    height, width, channels = image.shape
    kernelSize, _, inputChannels, embedDim = K.shape
    if kernelSize > height or kernelSize > width:
        raise ValueError("kernel is bigger than the image")
    outHeight = (height - kernelSize) // stride + 1
    outWidth = (width - kernelSize) // stride + 1
    projection = np.zeros((outHeight, outWidth, embedDim))
    for i in range(outHeight):
        for j in range(outWidth):
            window = image[i:i + kernelSize, j:j + kernelSize, :]
            projection[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    # print(projection.shape)
    return projection
