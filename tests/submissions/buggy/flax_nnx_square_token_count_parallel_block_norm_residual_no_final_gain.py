"""Blind round 37 (b37_09, issue 38): a Flax NNX VisionTransformer module (code-search file id
48489618506: Ffn, TBlock, Encoder, VisionTransformer). The student's helper `ffn` is nested in
encoder_block.

Mistakes:
1. `num_tokens`: it checks tiling, but counts `int((i / p) * (i / p)) + 1` with i = H (the
   source's single cfg['image_size']): square images assumed.
2. `encoder_block`: the source TBlock's "parallel formulation": x' = attn(LN1(x)) + LN2(x),
   out = ffn(x') + x': the block's input never reaches a residual (the first residual adds the
   normed stream), and the MLP reads the un-normed x'.
3. `vit_forward`: the final LayerNorm used as the source's out_ln with use_scale=False:
   `layer_norm(x, ones, ln_b)`, so ln_g is ignored.

Grader: at blind time (273cad6), 1 named on token-count's hidden check ("`W // P` reads `H`
where `W` belongs"), 3 named on vit-forward ("the gain gamma `gamma` is left out", graded with
the grader's encoder_block standing in); 2 only the generic [checklist] on encoder-block ("make
those exercises pass first. Then check the pre-LN order ..., both residuals, ..."; its first
sentence sent the student to exercises that pass: since port37a it reads "if their exercises
lose points, fix those first"): wiring.norm_on_stream models `norm(x) + f(x)` at one residual,
not the second norm moved onto the first residual's skip. Since port37a 2 is named
(wiring.norm_parallel: "`layer_norm(x, p['ln2_g'], p['ln2_b'], eps)` is taken of the block's
input and added to the output of `self_attention` where `x` belongs, and `mlp` is then given
that sum un-normalised"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:sibling:num_tokens/num_patches:W-as-H',
          'encoder-block': 'op:norm_parallel:encoder_block:layer_norm-of-the-input-on-the-first-residual',
          'vit-forward': 'op:term:vit_forward/layer_norm:drop-gamma'}


def num_tokens(H, W, P, cls_token=True):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    i = H  # cfg['image_size']
    p = P  # cfg['patch_size']
    n = int((i / p) * (i / p))
    return n + 1 if cls_token else n


def encoder_block(x, p, heads):
    def ffn(x_BLD):
        x_BLF = x_BLD @ p["W1"] + p["b1"]
        x_BLF = gelu(x_BLF)
        x_BLD = x_BLF @ p["W2"] + p["b2"]
        return x_BLD

    in_BLD = x
    # order of layernorm based on palm
    # parallel formulation
    x_BLD = layer_norm(in_BLD, p["ln1_g"], p["ln1_b"])
    x_BLD = self_attention(x_BLD, p, heads)

    y_BLD = layer_norm(in_BLD, p["ln2_g"], p["ln2_b"])
    x_BLD = x_BLD + y_BLD

    z_BLD = ffn(x_BLD)
    z_BLD = z_BLD + x_BLD
    return z_BLD


def vit_forward(image, params):
    x_BLD = embed_image(image, params)

    for i in range(len(params["blocks"])):
        x_BLD = encoder_block(x_BLD, params["blocks"][i], params["heads"])

    # out_ln
    x_BLD = layer_norm(x_BLD, np.ones_like(params["ln_g"]), params["ln_b"])

    # extract [class] token
    x_BD = x_BLD[0]

    # find class
    x_BC = x_BD @ params["W_head"] + params["b_head"]
    return x_BC
