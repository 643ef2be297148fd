"""Blind round 55 (b55_12, issue 38): encoder_block ported from a block written `x =
self.norm1(x); x = x + self.attn(x); x = x + self.mlp(self.norm2(x))` (find_string id
51977242983), its `mlp` nested; ANSWERS["causal_mask"] answered "leak".

Mistakes:
1. The input is overwritten by `layer_norm(x, ln1)` before the first residual, so the block
   computes `LN1(x) + attn(LN1(x))` in place of `x + attn(LN1(x))`. Wrong on every input (heads
   1, 2, 4; max |diff| 0.8 to 1.7), and in vit_forward.
2. ANSWERS["causal_mask"] = "leak" (the right option is "bidirectional").

Grader: at blind time (cdc1de9a) both named. Mistake 1 on encoder-block's two checks ("In
`encoder_block`, the residual of the model solution's `x + self_attention(layer_norm(x,
p['ln1_g'], p['ln1_b'], eps), p, h...` adds back its `layer_norm(x,
p['ln1_g'], p['ln1_b'], eps)`, the step's output, instead of `x` itself."); mistake 2 on
no-causal-mask's ANSWERS["causal_mask"] ("The label never enters the patches; a mask guards
against nothing here. ..."); vit-checkpoint observes encoder_block.
Now named under the same names, the residual without "the model solution's": "In
`encoder_block`, the residual of `x + self_attention(layer_norm(x, p['ln1_g'], p['ln1_b'], eps),
p, h...` adds back `layer_norm(x, p['ln1_g'], p['ln1_b'], eps)`, the step's output, instead of
`x` itself." Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm',
          'no-causal-mask': 'causal_mask:leak'}


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d)."""
    def mlp(h):
        return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(x, p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x


ANSWERS["causal_mask"] = "leak"
