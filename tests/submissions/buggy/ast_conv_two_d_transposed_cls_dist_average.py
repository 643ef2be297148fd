"""Blind round 57 (b57_03, issue 38): YuanGongND/ast `src/models/ast_models.py` (PatchEmbed,
ASTModel.get_shape, ASTModel.forward: `x.unsqueeze(1).transpose(2, 3)`, `(x[:, 0] + x[:, 1]) / 2`).

Mistakes:
5. `conv_patch_embed` mirrors ASTModel.forward's time/frequency swap for a 2-D input: the
   image is transposed before the convolution (`x[None].transpose(0, 2, 1).transpose(1, 2, 0)`),
   so the output is the convolution of `image.T`. Shows on 2-D (H, W) images only (3-D images
   are right): wrong values for square ones, the wrong shape for H != W.
6. `vit_forward` classifies `(x[0] + x[1]) / 2`, AST's average of the [CLS] and distillation
   tokens; here row 1 is the first patch token. Shows on any input.

Grader: at blind time (84f876fc) and now, #6 named ("op:pool:vit_forward:x[0]-mean-with-next");
#5 only observed at blind time: "Your `conv_patch_embed` is right for (H, W, C) images, wrong for
a 2-D (H, W) one" (only_3d_images), true, but the transpose not named. Now named
(error_model/inputs.py's gray_transposed): "In `conv_patch_embed`, a 2-D (H, W) `image` is
transposed before it gets its channel axis, (W, H, 1) (...)". In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:gray_transposed:conv_patch_embed:image-2d-transposed',
          'vit-forward': 'op:pool:vit_forward:x[0]-mean-with-next'}


def conv_patch_embed(image, K, b, stride):
    def get_shape(fstride, tstride, input_fdim, input_tdim, k):
        f_dim = (input_fdim - k) // fstride + 1
        t_dim = (input_tdim - k) // tstride + 1
        return f_dim, t_dim

    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[None]
        x = x.transpose(0, 2, 1)
        x = x.transpose(1, 2, 0)
    k = K.shape[0]
    input_fdim, input_tdim, C = x.shape
    if k > input_fdim or k > input_tdim:
        raise ValueError("kernel larger than input")
    fstride = tstride = stride
    f_dim, t_dim = get_shape(fstride, tstride, input_fdim, input_tdim, k)
    out = np.zeros((f_dim, t_dim, K.shape[-1]))
    for f in range(f_dim):
        for t in range(t_dim):
            window = x[f * fstride:f * fstride + k, t * tstride:t * tstride + k, :]
            out[f, t] = np.tensordot(window, K, axes=3)
    return out + b


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = (x[0] + x[1]) / 2
    return x @ params["W_head"] + params["b_head"]
