"""Blind round 34 (b34_02, issue 38): embed_image and self_attention ported from
NobuoTsukamoto/jax_examples (classification/implements/vit.py: the Flax MultiHeadSelfAttention
with `linear = partial(nn.Dense, use_bias=False)`, and VitInputLayer: a conv with kernel_size =
strides = patch_size, `num_patch = num_patch_row ** 2`, jax.lax.collapse, the class token and the
positions). The module's `linear` is nested in self_attention.

Mistakes:
1. self_attention: the projections have no biases (the Flax module's use_bias=False): bq, bk,
   bv, bo are ignored.
2. embed_image: a square patch grid assumed (`num_patch = (H // P) ** 2`, from the height only)
   before reshaping the conv's output: a non-square image crashes in np.reshape (ValueError).
3. embed_image: the patches come from the VALID conv (conv_patch_embed floors) and nothing checks
   the tiling: a square image P does not tile (10x10, P=4) gives tokens where ValueError is asked
   for. Hidden behind mistake 2 on non-square images (they raise ValueError, by accident).

Grader: at blind time (5712eea), mistake 1 named ("In `self_attention` (in each of its 4 calls
of `linear`), the bias `b` is left out of `x @ W + b`.") on no-causal-mask and
multi-head-attention; mistake 2 only observed ("Your `embed_image` is right when H == W, and
raises ValueError for a 4 x 6 image", only_square_images); mistake 3 not told (no check gave
embed_image a square image P does not tile). Now all three named: mistake 2 on cls-and-positions'
RGB and hidden checks ("the patch tokens of `linear_patch_embed(...)` are reshaped to (H // P) **
2 rows, a patch count made for square images", error_model/collapse.py, the reshape refused with
the student's very message), mistake 3 on its refusal check, which now sends square images P does
not tile ("nothing refuses an image that P does not tile: the grid is floored and the last rows
and columns left out (as a kernel = stride = P convolution with VALID padding does)", op:floored:embed_image:
image-floored-to-tiles). why-positions says the file's embed_image failed on the property's
input (an observation of the crash, not a mistake of its own). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:square_count:embed_image:tokens-counted-from-H-squared',
          'no-causal-mask': 'op:term:self_attention/linear*:drop-b',
          'multi-head-attention': 'op:term:self_attention/linear*:drop-b'}


def embed_image(image, params):
    """Vit Input layer, as the Flax VitInputLayer: conv patches, collapse, class token, positions."""
    image = _as_hwc(image)
    P = params["P"]
    embedded_dim = params["W_e"].shape[1]
    image_size = image.shape[0]
    num_patch_row = image_size // P
    num_patch = num_patch_row ** 2

    # (H, W, C) -> (H/P, W/P, D), a conv with kernel_size = strides = patch_size
    kernel = params["W_e"].reshape(P, P, image.shape[2], embedded_dim)
    z_0 = conv_patch_embed(image, kernel, params["b_e"], P)

    # (H/P, W/P, D) -> (Np, D)   (jax.lax.collapse(z_0, 1, -1) in the batched original)
    z_0 = np.reshape(z_0, (num_patch, embedded_dim))

    # (Np, D) -> (N, D), N = Np + 1
    z_0 = np.concatenate([params["cls"][None, :], z_0], axis=0)

    # (N, D) -> (N, D)
    z_0 = z_0 + params["pos"]
    return z_0


def self_attention(x, p, heads, causal=False):
    """ViT Multi-Head Self Attention (the Flax module with linear = partial(nn.Dense, use_bias=False))."""
    num_patch, embedded_dim = x.shape
    if embedded_dim % heads:
        raise ValueError(f"embedded_dim {embedded_dim} is not divisible by head {heads}")
    head_dim = embedded_dim // heads
    sqrt_dh = head_dim ** 0.5

    def linear(y, name):
        return y @ p["W" + name]

    # (N, D) ~> (N, D)
    q = linear(x, "q")
    k = linear(x, "k")
    v = linear(x, "v")

    # (N, D) -> (N, h, D//h) -> (h, N, D//h)
    q = np.transpose(np.reshape(q, (num_patch, heads, head_dim)), (1, 0, 2))
    k = np.transpose(np.reshape(k, (num_patch, heads, head_dim)), (1, 0, 2))
    v = np.transpose(np.reshape(v, (num_patch, heads, head_dim)), (1, 0, 2))

    # (h, N, D//h) -> (h, D//h, N)
    k_T = np.transpose(k, (0, 2, 1))
    # (h, N, D//h) x (h, D//h, N) -> (h, N, N)
    dots = (q @ k_T) / sqrt_dh
    if causal:
        dots = np.where(np.tril(np.ones((num_patch, num_patch), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)

    # (h, N, N) x (h, N, D//h) -> (h, N, D//h)
    out = attn @ v
    # (h, N, D//h) -> (N, h, D//h) -> (N, D)
    out = np.transpose(out, (1, 0, 2))
    out = np.reshape(out, (num_patch, embedded_dim))

    # (N, D) -> (N, D)
    out = linear(out, "o")
    return out
