"""Blind round 58 (b58_14, issue 38): patchify, linear_patch_embed and conv_patch_embed ported
from open-mmlab/mmcv `mmcv/cnn/bricks/transformer.py` (AdaptivePadding with padding="corner",
PatchEmbed, PatchMerging's `nn.Unfold` sampler). The student's `_to_hwc`, `get_pad_shape`,
`adaptive_padding` and `unfold` (top-level in the file) are nested in the functions that call
them here: the builder replaces only the solution's own definitions. conv_patch_embed is right
(it transposes K to match unfold's channel-first windows), kept as the student wrote it since
kernel-stride compares it with linear_patch_embed.

Mistakes:
21. patchify (line 53 of the file as delivered) zero-pads sizes that do not tile at the bottom
    and the right (mmcv's AdaptivePadding, padding="corner") instead of raising ValueError.
    Wrong only when H % P or W % P != 0.
22. linear_patch_embed (line 72, through `unfold`, line 65) flattens each patch channel first,
    `(c, p1, p2)`, as nn.Unfold does, instead of `(p1, p2, c)`. Wrong only with C > 1 (gray
    images are right); embed_image and vit_forward call it.

Grader: at blind time (ba46f523) 96/110, both named. Mistake 21 on patchify's "errors"
and random non-tiling checks ("In `patchify`, the image is zero-padded at the bottom and right to
a multiple of `P` before it is cut ... raise ValueError instead of padding."). Mistake 22 on
linear-patch-embed's RGB and random checks ("Your tokens pair each patch's values with W_e's rows
channel first, (c, p1, p2): torch's weight order, not the course's. ..."). kernel-stride lost 2
points at blind time on "kernel P, stride P equals the linear map": the correct conv_patch_embed
was compared with the student's own broken linear_patch_embed. Since then the check declares
linear_patch_embed its yardstick (`against=`), graded around a broken one with a correct stand-in:
98/110, kernel-stride full marks.
vit-checkpoint observes linear_patch_embed. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-to-tile',
          'linear-patch-embed': 'linear_embed_channel_first'}
CORRECT = ("conv_patch_embed",)


def patchify(image, P):
    """Split an (H, W, C) image into (N, P*P*C) patches, row by row."""
    def _to_hwc(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[..., None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    def get_pad_shape(input_shape, kernel_size, stride):
        input_h, input_w = input_shape
        output_h = math.ceil(input_h / stride)
        output_w = math.ceil(input_w / stride)
        pad_h = max((output_h - 1) * stride + kernel_size - input_h, 0)
        pad_w = max((output_w - 1) * stride + kernel_size - input_w, 0)
        return pad_h, pad_w

    def adaptive_padding(x, kernel_size, stride):
        pad_h, pad_w = get_pad_shape(x.shape[:2], kernel_size, stride)
        if pad_h > 0 or pad_w > 0:
            x = np.pad(x, ((0, pad_h), (0, pad_w), (0, 0)))
        return x

    x = _to_hwc(image)
    x = adaptive_padding(x, P, P)
    H, W, C = x.shape
    out_size = (H // P, W // P)
    x = x.reshape(out_size[0], P, out_size[1], P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(out_size[0] * out_size[1], P * P * C)


def linear_patch_embed(image, W_e, b_e, P):
    """Patch embeddings (N, d) = patchify(image, P) @ W_e + b_e."""
    def _to_hwc(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[..., None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    def unfold(x, kernel_size, stride):
        H, W, C = x.shape
        cols = []
        for i in range(0, H - kernel_size + 1, stride):
            for j in range(0, W - kernel_size + 1, stride):
                cols.append(x[i:i + kernel_size, j:j + kernel_size, :].transpose(2, 0, 1).reshape(-1))
        return np.stack(cols, axis=1)

    x = _to_hwc(image)
    num_patches(x.shape[0], x.shape[1], P)
    x = unfold(x, P, P)
    x = x.T
    return x @ W_e + b_e


def conv_patch_embed(image, K, b, stride):
    """Convolve an (H, W, C) image with a (k, k, C, d) kernel: (H', W', d)."""
    def _to_hwc(x):
        x = np.asarray(x)
        if x.ndim == 2:
            x = x[..., None]
        if x.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return x

    def unfold(x, kernel_size, stride):
        H, W, C = x.shape
        cols = []
        for i in range(0, H - kernel_size + 1, stride):
            for j in range(0, W - kernel_size + 1, stride):
                cols.append(x[i:i + kernel_size, j:j + kernel_size, :].transpose(2, 0, 1).reshape(-1))
        return np.stack(cols, axis=1)

    x = _to_hwc(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than input")
    cols = unfold(x, k, stride)
    out_h, out_w = (H - k) // stride + 1, (W - k) // stride + 1
    weight = K.transpose(2, 0, 1, 3).reshape(C * k * k, -1)
    return (cols.T @ weight + b).reshape(out_h, out_w, -1)
