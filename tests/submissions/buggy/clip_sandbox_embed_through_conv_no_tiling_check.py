"""Blind round 68 (b68_15, issue 38): embed_image, self_attention and vit_forward ported from
Siddharth-magesh/deep-learning-sandbox `CLIP/src/modules/multi_head_attention.py` (a fused
(d, 3d) qkv, reshape(N, 3, heads, d_h) and permute), `CLIP/src/vision_transformer.py`
(VisionTransformer.forward) and `CLIP/src/modules/patch_embedding.py` (conv_proj with kernel =
stride = P, then flatten): self_attention and vit_forward right. The key called the file
correct; the judge found a real mistake.

Mistakes:
(not in the key) embed_image (line 119 of the file as delivered): the patches go through
    `conv_patch_embed(image, W_e.reshape(P, P, C, d), b_e, P)`, a VALID convolution that floors
    its grid, so nothing refuses an image that P does not tile (6 x 6 x 3 with P = 4 gives 2
    tokens), where the question sheet and the solution (through linear_patch_embed) raise
    ValueError. Wrong for sizes P does not tile only.

Grader: at blind time (766069c5) 109/110, named on cls-and-positions' tiling check, with a WRONG
detail (the judge's wrong hint 5): "so `linear_patch_embed(image, params['W_e'], params['b_e'],
params['P'])` gets the patches that fit", of an embed_image that never calls linear_patch_embed.
Now (after the same session's change: collapse.py places the edit at the model solution's step, said as the
student's own line), 109/110, named with no wrong detail: "In `embed_image` (at your line
`x = conv_patch_embed(image, params["W_e"].reshape(P, P, C, ...`), nothing refuses an image
that P does not tile: the grid is floored and the last rows and columns left out (as a kernel =
stride = P convolution with VALID padding does), so the patch embedding gets the patches that
fit ... raise ValueError when P does not divide H or W (the model solution's
`linear_patch_embed` does)". Every mistake named, no hint wrong, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:floored:embed_image:image-floored-to-tiles'}
CORRECT = ('self_attention', 'vit_forward')


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    P = params["P"]
    C = _as_hwc(image).shape[-1]
    embed_dim = params["W_e"].shape[1]
    # conv_proj with kernel_size = stride = patch_size, weights taken from the linear map
    x = conv_patch_embed(image, params["W_e"].reshape(P, P, C, embed_dim), params["b_e"], P)  # (H/P, W/P, E)
    x = x.reshape(-1, embed_dim)  # flatten(2).transpose(1, 2): (N, E)
    cls_token = params["cls"][None, :]  # (1, E)
    x = np.concatenate([cls_token, x], axis=0)  # (N+1, E)
    x = x + params["pos"]  # (N+1, E)
    return x


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)  # self.qkv = nn.Linear(embed_dim, embed_dim*3)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, heads, head_dim)
    qkv = qkv.transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.triu(np.ones((N, N), dtype=bool), k=1), -np.inf, attn)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]  # self.proj
    return x


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    x = embed_image(image, params)  # x : (N+1, E)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])  # x : (N+1, E)
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]  # x : (E,)
    x = x @ params["W_head"] + params["b_head"]  # x : (num_classes,)
    return x
