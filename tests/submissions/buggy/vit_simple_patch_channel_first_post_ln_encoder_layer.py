"""Blind round 39 (b39_10, issue 38): patchify and encoder_block following ViTSimple in a
PyTorch ViT (code-search file id 40199205088: an einops Rearrange + nn.Flatten + nn.Linear patch
embedding, nn.TransformerEncoder of nn.TransformerEncoderLayer(d_model, nhead,
dim_feedforward, activation="gelu")). The student's helpers stay nested, as in the file.

Mistakes:
1. patchify: Rearrange("b c (h p1) (w p2) -> b (h w) c p1 p2") + Flatten: each patch flattened
   channel first, (c, p1, p2) (the API: (p1, p2, c)). Shows only for C > 1.
2. encoder_block: nn.TransformerEncoderLayer's default norm_first=False: post-LN,
   x = LN1(x + SA(x)); x = LN2(x + MLP(x)) (the lecture: pre-LN).

Grader: at blind time (b589706) and now, named: "You flattened each patch channel first, (c, p1,
p2)" on patchify's RGB and hidden checks (the gray ones pass); "That is a post-LN block" on
encoder-block; vit-checkpoint observes the broken functions. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'encoder-block': 'encoder_post_ln'}


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C): Rearrange("b c (h p1) (w p2) -> b (h w) c p1 p2") then Flatten(start_dim=2)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)                       # (c, H, W), channels first as in torch
    h, w = H // P, W // P
    x = x.reshape(C, h, P, w, P)                       # c (h p1) (w p2)
    x = x.transpose(1, 3, 0, 2, 4)                     # (h w) c p1 p2
    x = x.reshape(h * w, C, P, P)
    return x.reshape(h * w, -1)                        # nn.Flatten(start_dim=2)


def encoder_block(x, p, heads):
    """nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, activation="gelu").forward, eval mode."""
    def _sa_block(h):
        return self_attention(h, p, heads)

    def _ff_block(h):
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = layer_norm(x + _sa_block(x), p["ln1_g"], p["ln1_b"])    # norm1
    x = layer_norm(x + _ff_block(x), p["ln2_g"], p["ln2_b"])    # norm2
    return x
