"""Blind round 31 (b31_03, issue 38): Beckschen/TransUNet, networks/vit_seg_modeling.py
(Embeddings: `n_patches = (img_size[0] // patch_size[0]) * (img_size[1] // patch_size[1])`,
`embeddings = x + self.position_embeddings`, with a [CLS] row put in front afterwards because
TransUNet has none; Encoder with encoder_norm eps=1e-6 as vit_forward, right: CORRECT).

Mistakes:
1. num_patches: floors with `//` and never raises ValueError when P does not tile the image
   (num_tokens inherits it; patchify still raises through its reshape).
2. embed_image: the positions are added to the patches first, `pos[:N]`, and [CLS] is put in
   front afterwards: patch n gets pos[n] instead of pos[n + 1], and [CLS] gets no position.
   Wrong on every input with pos != 0.

Grader: at blind time (fbf6cc7) and at this commit, named: "You returned (H // P) * (W // P):
floor division silently drops the pixels that do not fit ... raise ValueError instead of
rounding" (floor_division_count) on patch-count; "`x + params['pos']` is added before
`np.vstack([params['cls'], x])` ... with `params['pos'][:len(x)]`: the rows it joins to `x` get
nothing added" on cls-and-positions' RGB and hidden checks. But its worked-example check names
a WRONG cause: "the rows of `params['pos']` after the first reach the rows one late ... row 0
keeping `params['pos'][0]`" (op:one_row_late): [CLS] gets no position here, and that check's
pos[0] is zero, so it cannot tell the two apart. EXPECT is the right name, the hidden check's.
The catalogue's tests do not catch the wrong one (a generated name is replayed on its own
check's cases only, where it holds, and is exempt from "never told another mistake"): the fix
that makes a named mistake hold on every case the function ran, whichever check ran first
(branch recheck, tests/test_observations_hold.py), is what removes it. vit-forward keeps its
points (the grader's embed_image standing in); vit-checkpoint observes the broken embed_image.
Every mistake named (and, once the wrong hint is gone, named by right causes only), so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}
CORRECT = ('vit_forward',)  # TransUNet's Encoder and a head on token 0, right


def num_patches(H, W, P):
    """n_patches as TransUNet's Embeddings computes it."""
    img_size = (H, W)
    patch_size = (P, P)
    n_patches = (img_size[0] // patch_size[0]) * (img_size[1] // patch_size[1])
    return n_patches


def embed_image(image, params):
    """Embeddings.forward: patch embeddings + position_embeddings, then the [CLS] row in front."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])   # (n_patches, hidden)
    n_patches = x.shape[0]
    position_embeddings = params["pos"]
    embeddings = x + position_embeddings[:n_patches]
    cls_token = params["cls"][None, :]
    embeddings = np.concatenate([cls_token, embeddings], axis=0)
    return embeddings


def vit_forward(image, params):
    """Transformer.forward (embeddings, Encoder with encoder_norm), then the classifier on token 0."""
    hidden_states = embed_image(image, params)
    for layer_block in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_block, params["heads"])
    encoded = layer_norm(hidden_states, params["ln_g"], params["ln_b"], eps=1e-6)
    logits = encoded[0] @ params["W_head"] + params["b_head"]
    return logits
