"""Blind round 55 (b55_10, issue 38): linear_patch_embed with a ToTensor-style rescale (find_string
id 18201237095: `if pic.dtype == np.uint8: pic = pic / 255.`); conv_equivalent from a PyTorch
patch embedding (find_string id 17361850144: `nn.Conv2d(in_channel, embed_dim,
kernel_size=patch_size)`, no stride given).

Mistakes:
1. linear_patch_embed rescales uint8 images by 1/255 before patchify. Wrong only on uint8 images
   (8x8x3 uint8: max |diff| 1.7e3; 8x4 gray uint8 too), and from there in embed_image and
   vit_forward. Float images are right.
2. conv_equivalent returns `(P, 1)` (kernel P with torch's default stride 1), not `(P, P)`.

Grader: at blind time (cdc1de9a) and now, both named. Mistake 1 on linear-patch-embed's "RGB
images, with a bias" ("In `linear_patch_embed`, integer pixels (a uint8 image) are rescaled to
[0, 1] first, `image / 255`, as torchvision's ToTensor does for uint8 arrays only: the model
solution's functions take the pixel values as they are, whatever their dtype; rescaling is the
data pipeline's job."). Mistake 2 on kernel-stride's "conv_equivalent(P) is (P, P)" ("Stride 1
slides the kernel one pixel at a time: overlapping windows, as a CNN does. ViT patches tile, so
the kernel moves by a whole patch: stride P.") and its hidden check ("Patches tile: the kernel
moves by a whole patch, stride P."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:rescaled:linear_patch_embed:integer-image-over-255',
          'kernel-stride': 'conv_equivalent_stride_one'}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): patchify(image, P) @ W_e + b_e."""
    pic = np.asarray(image)
    if pic.ndim == 2:
        pic = pic[:, :, None]

    if pic.dtype == np.uint8:
        pic = pic / 255.

    return patchify(pic, P) @ W_e + b_e


def conv_equivalent(P):
    """(kernel_size, stride) of the convolution equal to the patch linear map."""
    kernel_size = P
    stride = 1
    return (kernel_size, stride)
