"""Blind round 72 (b72_14, issue 38): conv_patch_embed (with its `_image`) and embed_image
ported from devkumakode/BeatlyAI `AI/ecg_tools/model.py` (einops-style comments, LinearEmbedding
then a cls token concatenated with `einops.repeat`).

Mistakes:
1. conv_patch_embed (lines 54-58 of the file as delivered): done as a non-overlapping reshape
   into stride x stride blocks with `out = H // stride`; right only when k == stride (it even
   floors non-tiling sizes right). With k != stride (stride 1, or k=3 stride 2) it raises a
   matmul ValueError instead of giving the (H - k) // stride + 1 output, for any C.
2. embed_image (lines 68-71): the positions `pos[1:]` are added to the patches, then [CLS] is
   prepended without `pos[0]`, so row 0 has no position. Wrong on every input.
The delivered file's top-level helper `_image` (patchify uses it too) is nested here.

Grader: at blind time (2df48139) and now, 96/110. Mistake 2 named on cls-and-positions ("You
added the positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no
position at all."). Mistake 1 not told: kernel-stride's hidden check gives its checklist ("for
any kernel size and any stride (not only k = stride = P) ... H' = (H - k) // stride + 1"), and
its visible check says "Your `conv_patch_embed` raises ValueError for a 3 x 3 kernel on an
image with 3 channels (k == C): ... with k == C its first three axes have one length, so look at
each step that depends on K's sizes", WRONG (the judge's wrong hint 1): the code raises whenever
k != stride, for any C (C = 1/2/3/4 with k=3 s=1, k=3 s=2 and k=4 s=2 all raise); it has no k/C
axis confusion. vit-checkpoint runs the broken embed_image and says so. Mended since 59a454b1
(checks/kinds/generalisations.py's only_kernel_equals_stride): both kernel-stride checks observe,
true, "Your `conv_patch_embed` is right when the kernel size k equals the stride (windows that
tile, as ViT's patches do), and raises ValueError for a 3 x 3 kernel with stride 1: each window
is k x k and starts every `stride` pixels, so windows overlap where k > stride and leave pixels
out where k < stride; look at each step that reads the windows, and at H' = (H - k) // stride +
1" (at b9994292, 96/110), an observation: the non-overlapping reshape is not named. Not every
mistake named, so in unnamed/; EXPECT holds what must hold today: the points lost, mistake 2
named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': None,
          'cls-and-positions': 'embed_positions_before_cls'}


def conv_patch_embed(image, K, b, stride):
    def _image(x):
        x = np.asarray(x, dtype=np.float64)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError("expected an image of shape (H, W) or (H, W, C)")
        return x

    x = _image(image)
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the input")
    out_h, out_w = H // stride, W // stride
    x = x[:out_h * stride, :out_w * stride]
    # rearrange: "(h s1) (w s2) c -> h w (s1 s2 c)"
    x = x.reshape(out_h, stride, out_w, stride, C).transpose(0, 2, 1, 3, 4).reshape(out_h, out_w, -1)
    return x @ K.reshape(-1, K.shape[-1]) + b


def embed_image(image, params):
    embedded = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # positional encoding
    embedded = embedded + params["pos"][1:]
    # repeat(self.cls_token, "n e -> b n e") and prepend
    cls_token = params["cls"].reshape(1, -1)
    return np.concatenate([cls_token, embedded], axis=0)
