"""Blind round 43 (b43_11, issue 38): linear_patch_embed, embed_image, layer_norm and
vit_forward ported from the C++ ViT in Jayan04-MCC/google_vit_Proyect (src/PatchEmbedder.cpp,
src/InputBuilder.cpp, src/layerNorm.cpp with `float epsilon = 1e-5f;`, main.cpp:
`TransformerEncoderLayer(..., 12)` in the layer loop, then `x.sliceRows(0, 1)` for the CLS
token). linear_patch_embed and embed_image are correct loop ports.

Mistakes:
1. layer_norm: `epsilon = 1e-5` hard-coded: the eps argument is ignored (and the default is
   1e-5, not 1e-6).
2. vit_forward: every block is called with 12 heads, `encoder_block(x, layer, 12)`, instead of
   params["heads"]: right only when heads == 12; width 8 with 2 heads raises ValueError.
3. vit_forward: no final layer_norm before the head (the [CLS] row goes straight from the last
   block to W_head).

Grader: at blind time (b20830f): 1 named on layer-norm ("In `layer_norm`, `eps` is fixed at
1e-05 (a library's usual default) whatever is given ..."), 2 and 3 not told (both vit-forward
checks stopped at 2's "ValueError: width 8 is not divisible by 12 heads", with only the
checklist). Now 2 and 3 are named together on the visible vit-forward check ("2 mistakes at
once: (1) In `vit_forward`, the step `layer_norm(x, params['ln_g'], params['ln_b'])` is left
out ... (2) In `vit_forward`, `encoder_block` is called with 12 heads, a fixed number
(ViT-Base's ...) instead of `params['heads']` ..."): the pair raises ValueError where the width
does not take 12 heads (cases 1, 3, 4) and returns the student's logits on case 2 (width 12).
The hidden check's cases all raise (no width takes 12 heads): only its checklist.
vit-checkpoint (its width takes 12 heads) observes layer_norm and vit_forward.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05', 'vit-forward': 'op:skip:vit_forward:skip-layer_norm+op:fixed_count:vit_forward:heads-as-12'}
CORRECT = ('linear_patch_embed', 'embed_image')


def linear_patch_embed(image, W_e, b_e, P):
    """PatchEmbedder::embed: patches * weight, then the bias added to every row."""
    patches = patchify(image, P)
    output = patches @ W_e                  # (196, 768)
    for i in range(output.shape[0]):
        output[i, :] += b_e
    return output

def embed_image(image, params):
    """InputBuilder::build: CLS in row 0, the patch embeddings after it, then the position embeddings."""
    embedded_patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token, position_embeddings = params["cls"], params["pos"]
    assert position_embeddings.shape[0] == embedded_patches.shape[0] + 1
    new_rows, cols = embedded_patches.shape[0] + 1, embedded_patches.shape[1]
    full_input = np.zeros((new_rows, cols))
    full_input[0, :] = cls_token
    full_input[1:, :] = embedded_patches
    full_input += position_embeddings
    return full_input

def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm::forward, each row on its own."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    epsilon = 1e-5
    norm = (x - mean) / np.sqrt(var + epsilon)
    return norm * gamma + beta

def vit_forward(image, params):
    """main.cpp: embed, build, the encoder layers, then the CLS row through the classifier."""
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, 12)     # TransformerEncoderLayer(..., 12)
    cls_embedding = x[0]
    return cls_embedding @ params["W_head"] + params["b_head"]

