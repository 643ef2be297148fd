"""Blind round 41 (b41_15, issue 38): vit_forward after MLX, YuriiOks/mlx-w3-mnist-transformer,
src/mnist_transformer_mlx/model_mlx.py (VisionTransformerMLX: self.encoder_blocks = [... for _
in range(depth)], for block in self.encoder_blocks: x = block(x); cls_token_output = x[:, 0];
self.norm(cls_token_output); self.head(...)), the blocks kept as a list of lambdas.

Mistakes:
1. vit_forward: `[lambda x: encoder_block(x, block, heads) for block in params["blocks"]]`:
   Python's late binding makes every lambda use the last block, so the last block is applied
   len(blocks) times. Right with one block (or identical blocks).

Grader: at blind time (6092674), only the checklist on vit-forward (visible, depth 2, and
hidden): "check the order: embed, every block of params["blocks"], the final LayerNorm, ...".
Now named there (visible and hidden): "every pass of `for block in params['blocks']` uses the
last one, `params['blocks'][-1]`, instead of `block`, as closures made in a loop and called after
it do ... (late binding)". vit-checkpoint observes the broken vit_forward. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:late_bound:vit_forward:block-last'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6), as VisionTransformerMLX.__call__."""
    # 2. Transformer Encoder Blocks, kept in a list as in VisionTransformerMLX.__init__
    encoder_blocks = [
        lambda x: encoder_block(x, block, params["heads"])
        for block in params["blocks"]
    ]

    # 1. Patch Embeddings (N+1, D)
    x = embed_image(image, params)

    for block in encoder_blocks:
        x = block(x)

    # 3. Extract CLS token and normalize
    cls_token_output = x[0]
    cls_token_output = layer_norm(cls_token_output, params["ln_g"], params["ln_b"])

    # 4. MLP Head
    logits = cls_token_output @ params["W_head"] + params["b_head"]
    return logits
