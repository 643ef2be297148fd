"""Blind round 62 (b62_10, issue 38): encoder_block and ANSWERS ported from google-research/maskgit
`maskgit/nets/maskgit_transformer.py` (TransformerLayer: BERT's post-LN order, Attention and Mlp
with the tanh GELU, accepted). The student's top-level `gelu` (tanh) is nested in encoder_block
and the module constant `LAYERNORM_EPSILON = 1e-6` made a local there: the builder replaces only
the solution's own definitions.

Mistakes:
15. encoder_block (lines 112-122 of the file as delivered): the source's post-LN layer,
    `LN(x + attn(x))` then `LN(h + mlp(h))`: attention and the MLP see un-normalised input.
    Wrong on any input.
16. ANSWERS["medical"] (line 136) is "scratch" where the answer is "pretrained".

Grader: at blind time (90d6c97e) and now, 97/110, both named. Mistake 15 on encoder-block's two
checks ("That is a post-LN block (LayerNorm after each residual sum, as in the 2017 Transformer).
ViT is pre-LN ..."). Mistake 16 on pretrained-or-scratch's answer check ("... 'Do not train a ViT
from scratch on 800 scans' ..."); vit-checkpoint observes encoder_block. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln',
          'pretrained-or-scratch': 'medical:scratch'}


def encoder_block(x, p, heads):
    def gelu(x):
        return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))

    LAYERNORM_EPSILON = 1e-6
    # Attention
    layer_input = x
    attention_output = self_attention(layer_input, p, heads)
    attention_output = attention_output + layer_input
    attention_output = layer_norm(attention_output, p["ln1_g"], p["ln1_b"], LAYERNORM_EPSILON)
    # Mlp
    intermediate_output = attention_output @ p["W1"] + p["b1"]
    intermediate_output = gelu(intermediate_output)
    layer_output = intermediate_output @ p["W2"] + p["b2"]
    layer_output = layer_norm(layer_output + attention_output, p["ln2_g"], p["ln2_b"], LAYERNORM_EPSILON)
    return layer_output


ANSWERS["medical"] = "scratch"
