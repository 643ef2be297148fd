"""Blind round 64 (b64_15, issue 38): encoder_block ported from
prakash-p-3121/introduction-to-building-llms `10_Add_and_Normalize_Again/README.md` ("Add &
Norm": sub-layer, residual, then LayerNorm, twice).

Mistakes:
18. encoder_block (lines 177 and 180 of the file as delivered): post-LN, `LN(x + attn(x))` then
    `LN(x + mlp(x))`, instead of the pre-LN ViT block `x + attn(LN(x))`, `x + mlp(LN(x))`.
    Wrong on any input.

Grader: at blind time (0cd43d22) and now, 99/110, named. Mistake 18 on encoder-block's two checks
("That is a post-LN block (LayerNorm after each residual sum, as in the 2017 Transformer). ViT
is pre-LN ..."); vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    """The encoder block (T, d) -> (T, d) (section 3 step 5): attention, Add & Norm, FFN, Add & Norm."""
    attn_output = self_attention(x, p, heads)
    input_to_ffn = layer_norm(x + attn_output, p["ln1_g"], p["ln1_b"])       # Add & Norm
    ffn_output = gelu(input_to_ffn @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    residual_output = input_to_ffn + ffn_output                              # Add
    return layer_norm(residual_output, p["ln2_g"], p["ln2_b"])               # Norm
