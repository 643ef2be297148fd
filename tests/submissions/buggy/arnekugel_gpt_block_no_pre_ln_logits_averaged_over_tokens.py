"""Blind round 44 (b44_12, issue 38): encoder_block and vit_forward ported from
arnekugel/transformer, transformer_project/modelling/transformelmodel.py (numpy GPT:
`transformer_block: x = x + causal_self_attention(x, **attn)`, `gpt: return x @ wte.T` for every
position).

Mistakes:
1. encoder_block: the attention sublayer has no pre-LN (`x + self_attention(x, ...)`; ln1_g and
   ln1_b unused); the MLP sublayer is right.
2. vit_forward: projects every token through the head and averages the per-token logits
   (`(x @ W_head + b_head).mean(axis=0)`) instead of taking the [CLS] row (through a linear
   head the same as averaging the tokens).

Grader: at blind time (0fc72e8) and now, both named: at blind time "In `encoder_block`, the step
`layer_norm(x, p['ln1_g'], p['ln1_b'], eps)` is left out ..." (now: "In `encoder_block`, the
LayerNorm (with the model solution's `p['ln1_g']` and `p['ln1_b']`) is left
out ...") on encoder-block, and "You averaged every token. This model's head reads the [CLS] row
only ..." on vit-forward (graded with the grader's encoder_block); vit-checkpoint observes
encoder_block and vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'encoder-block': 'op:skip:encoder_block:skip-layer_norm',
    'vit-forward': 'vit_mean_pool_all_tokens',
}


def encoder_block(x, p, heads):
    """[n_seq, n_embd] -> [n_seq, n_embd]"""

    def linear(x, w, b):
        return x @ w + b

    def ffn(x):
        a = gelu(linear(x, p["W1"], p["b1"]))  # [n_seq, n_embd] -> [n_seq, 4*n_embd]
        return linear(a, p["W2"], p["b2"])     # [n_seq, 4*n_embd] -> [n_seq, n_embd]

    x = x + self_attention(x, p, heads)
    x = x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x

def vit_forward(image, params):
    """[H, W, C] -> [num_classes]"""
    x = embed_image(image, params)  # [n_seq, n_embd]

    # forward pass through n_layer transformer blocks
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])

    x = layer_norm(x, params["ln_g"], params["ln_b"])
    logits = x @ params["W_head"] + params["b_head"]  # [n_seq, n_embd] -> [n_seq, num_classes]
    return logits.mean(axis=0)
