"""Blind round 12 (b12_09, issue 38): Source style ported: timm (PatchEmbed(in_chans=3) defaults and
resample_patch_embed, which reads the patch size off the weight) and Hugging Face
ViTSelfAttention/ViTLayer with a `num_heads=1` default in the attention signature.

Mistake 1 (linear_patch_embed): ignores its P argument and derives the patch size from the weight
assuming RGB: patch = round(sqrt(W_e.shape[0] / 3)). Right: use P (W_e has P*P*C rows for any C).
Exact on RGB images; on gray (or other C) images the patch size is wrong and the matmul fails
(e.g. the worked example: sqrt(4/3) -> 1, a (16, 1) @ (4, 2) ValueError). embed_image and
vit_forward follow on gray images.
Mistake 2 (encoder_block): calls self_attention(h, p) without passing `heads`, so the attention's
default heads=1 is used. Right: self_attention(h, p, heads). Shows only with several heads.
(self_attention itself is the solution's with a default heads=1 added; the default is harmless.)

Grader: linear_patch_embed was observed (only_3d_images: "right for (H, W, C) images, wrong for
a 2-D (H, W) one"; the worked example got the checklist, the hidden check no hint); now named on
its worked example (channels.patch_from_weight: P read off W_e's rows as if every image had 3
channels, the rounding not said: the cases cannot tell round from floor). encoder_block named
(heads passed as 1). vit-checkpoint (the checkpoint's RGB images: the heads alone show) is the
integration check's observation of the broken functions it runs, each named in its own exercise:
as in every other buggy/ file, that exercise is not in EXPECT (session 19 moved the file).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:patch_from_weight:linear_patch_embed:P-read-off-W_e-as-rgb', 'encoder-block': 'op:count_as_one:encoder_block:heads-as-1'}
CORRECT = ('self_attention',)  # only a default added: keeps every point


def linear_patch_embed(image, W_e, b_e, P):
    in_chans = 3
    patch_size = int(round(math.sqrt(W_e.shape[0] / in_chans)))
    x = patchify(image, patch_size)
    return x @ W_e + b_e


def self_attention(x, p, heads=1, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    residual = x
    hidden = layer_norm(x, p["ln1_g"], p["ln1_b"])
    hidden = self_attention(hidden, p)
    x = residual + hidden
    residual = x
    hidden = layer_norm(x, p["ln2_g"], p["ln2_b"])
    hidden = gelu(hidden @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return residual + hidden
