"""Blind round 50 (b50_09, issue 38): embed_image and conv_patch_embed ported from OpenPPL
ppl.pmx, docs/operators/VisionEmbedding.md (`cls_emb = Cat(patch_emb, cls)`, `pos_emb = cls_emb +
position_weight[:Gh*Gw+1]`; `Gh = height / patch_size` as `H // stride`, one window per grid
cell).

Mistakes:
1. [CLS] is appended as the last row instead of prepended as row 0: every image gives a wrong
   sequence.
2. The output grid is `H // stride` by `W // stride` instead of `(H - k) // stride + 1`: right
   only when they coincide (k == stride); with k > stride the last windows run off the image and
   the matmul raises ValueError, with k < stride and a stride that does not tile it returns too
   few rows or columns.

Grader: at blind time (593126bb) and now, M1 named on cls-and-positions: "You appended [CLS] as
the last row. The course prepends it: [CLS] is row 0, the row the classifier head reads, and the
patches follow in raster order."; M2 named on kernel-stride: "In `conv_patch_embed`, the output
grid is sized `H // stride` by `W // stride` (loops over `range(H // stride)` and `range(W //
stride)`, ...) where the windows that fit number `(H - k) // stride + 1` down and `(W - k) //
stride + 1` across: ... Count the outputs as `(H - k) // stride + 1` and `(W - k) // stride +
1`."; vit-checkpoint observes embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:grid_by_stride:conv_patch_embed:windows-grid-H-over-stride',
          'cls-and-positions': 'embed_cls_appended'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    height, width, channels = image.shape
    patch_size = K.shape[0]
    hidden_dim = K.shape[3]
    if patch_size > height or patch_size > width:
        raise ValueError(f"kernel {patch_size} is larger than the {height}x{width} image")
    Gh, Gw = height // stride, width // stride
    kernel = K.reshape(-1, hidden_dim)
    patch = np.empty((Gh, Gw, hidden_dim))
    for i in range(Gh):
        for j in range(Gw):
            window = image[i * stride:i * stride + patch_size, j * stride:j * stride + patch_size, :]
            patch[i, j] = window.reshape(-1) @ kernel + b
    return patch


def embed_image(image, params):
    patch_emb = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])  # (Gh*Gw, hidden_dim)
    cls_emb = np.concatenate([patch_emb, params["cls"][None, :]], axis=0)             # Cat(patch_emb, cls)
    pos_emb = cls_emb + params["pos"][:patch_emb.shape[0] + 1, :]
    return pos_emb
