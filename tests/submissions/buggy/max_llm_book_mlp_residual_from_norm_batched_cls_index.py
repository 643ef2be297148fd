"""Blind round 49 (b49_08, issue 38): encoder_block after the GPT2Block step list of
robbertvanginkel/max-llm-book (book/src/step_09.md: save the residual, layer norm, sublayer, add
the residual); vit_forward after a torch ViT (`x = self.mlp_head(x[:, 0])`, mlp_head =
Sequential(LayerNorm, Linear)).

Mistakes:
1. The MLP residual is added to the LN2 output. The residual is not saved again before the second
   sublayer: `x = LN2(x); x = x + mlp(x)`. The API wants `x + mlp(LN2(x))`. It differs on every
   input.
2. `x[:, 0]` is the batched [CLS] index. On a (T, d) array it takes column 0, which has shape
   (T,), and then `layer_norm` with a (d,) gamma. When T != d this raises ValueError (a broadcast
   error) where ref returns logits. When T == d it returns logits of the wrong vector.

Grader: at blind time (7e618553) mistake 1 is named ("In `encoder_block`, the residual of
`x + mlp(layer_norm(x, p['ln2_g'], p['ln2_b'], eps), p, activation)` adds back
`layer_norm(x, p['ln2_g'], p['ln2_b'], eps)`, the step's output, instead of `x` itself.");
mistake 2 gets only vit_forward's checklist ("vit_forward reuses embed_image, encoder_block and
layer_norm: if their exercises lose points, fix those first. Then check the order: ... the [CLS]
row (row 0) through W_head, b_head ..."), under the note that the failure is in vit_forward's own
code, and vit-checkpoint's observation.
Now named: mistake 2 as "In `vit_forward`, the row `x[0]` is read as the column `x[:, 0]`, taken
before `layer_norm` (which works on each row alone: for the row either order is the same), as
torch code on a batch (B, T, d) takes token 0 of every sequence; on one (T, d) array it takes
entry 0 of every row, shape (T,), where the row, shape (d,), belongs. Index the row itself,
`x[0]`." (grader/reference/error_model/columns.py); mistake 1 as at blind time.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm.2',
          'vit-forward': 'op:row_as_column:vit_forward:x[0]-as-column-before-layer_norm'}


def encoder_block(x, p, heads):
    """The pre-LN block as max-llm-book's GPT2Block step list: residual, norm, sublayer, add."""
    residual = x
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)
    x = x + residual

    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = x + (gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"])
    return x


def vit_forward(image, params):
    """Logits of one image (a torch ViT: blocks, then mlp_head(x[:, 0]), LayerNorm then Linear)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = x[:, 0]
    x = layer_norm(x, params["ln_g"], params["ln_b"])  # mlp_head: LayerNorm, then Linear
    return x @ params["W_head"] + params["b_head"]
