"""Blind round 14 (b14_10, issue 38): ConvNeXt's LayerNorm (models/convnext.py, the
channels_first branch: weight[:, None, None] * x + bias[:, None, None]) and timm PatchEmbed with
strict_img_size=False for num_tokens.

Mistakes:
1. layer_norm: right statistics over the last axis, but gamma[:, None] * x + beta[:, None]
   (kept from the channels-first code) broadcasts gamma and beta along the token axis: a
   broadcasting error when T != d, tokens scaled when T == d, (d, d) for a 1-D input.
2. num_tokens catches num_patches' ValueError and floors ((H // P) * (W // P)) instead of
   raising.

Grader: at blind time and now, num_tokens is named (tokens_floor_division: "Floor division
silently drops the pixels that do not tile; raise ValueError (calling your num_patches does it
for you)"; the caught exception is not mentioned); layer_norm gets tracebacks, a (4, 4)-for-(1, 4)
shape and the property's "could not be judged" observation only.
Since session 14 the channels-first affine line is named (norms.as_columns: gamma and beta indexed
`[:, None]`): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:as_columns:layer_norm:gamma-beta-as-columns',
          'token-count': 'tokens_floor_division'}


def num_tokens(H, W, P, cls_token=True):
    """Tokens entering the transformer. Like timm's PatchEmbed with strict_img_size=False, an image
    that does not tile still works: the stride-P conv simply drops the remainder."""
    try:
        n = num_patches(H, W, P)
    except ValueError:
        n = (H // P) * (W // P)
    return n + (1 if cls_token else 0)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm ported from ConvNeXt (channels_first branch):
    u = x.mean(1, keepdim=True); s = (x - u).pow(2).mean(1, keepdim=True)
    x = (x - u) / torch.sqrt(s + self.eps); x = self.weight[:, None, None] * x + self.bias[:, None, None]
    with the statistics moved to the last axis (our tokens are channels-last)."""
    x = np.asarray(x, dtype=float)
    u = x.mean(-1, keepdims=True)
    s = ((x - u) ** 2).mean(-1, keepdims=True)
    x = (x - u) / np.sqrt(s + eps)
    return gamma[:, None] * x + beta[:, None]
