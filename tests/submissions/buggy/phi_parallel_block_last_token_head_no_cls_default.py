"""Blind round 23 (b23_04, issue 38): num_tokens, encoder_block and vit_forward ported from
Microsoft's Phi (phi-1.5 / phi-2 modeling_phi, mixformer: ParallelBlock `hidden_states =
attn_outputs + feed_forward_hidden_states + residual`, the logits of a causal LM read from the
last position).

Mistakes:
1. num_tokens defaults to `cls_token=False`, carried over from a causal LM with no [CLS].
2. encoder_block is Phi's parallel block: attention and MLP both read the block input,
   x + attn(ln1(x)) + mlp(ln2(x)), instead of the MLP reading the attention residual.
3. vit_forward reads the logits from the last token, `hidden_states[-1]`, instead of the [CLS]
   row 0.

Grader: at blind time and now, all three named: `cls_token` defaulting to False on token-count;
`layer_norm(x, p['ln2_g'], ...)` given `x` as it was before `x = x + self_attention(...)` on
encoder-block; "The head reads the last token; [CLS] is row 0" on vit-forward (the random check
names it as op:index, `x[0]` reading index -1); attention-cost, which runs the student's
num_tokens, gets its checklist; vit-checkpoint observes the broken functions. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False',
          'encoder-block': 'op:stale:encoder_block:x-before-update.2',
          'vit-forward': 'vit_last_row'}


def num_tokens(H, W, P, cls_token=False):
    n = num_patches(H, W, P)
    if cls_token:
        n += 1
    return n


def encoder_block(x, p, heads):
    residual = x
    attn_outputs = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    feed_forward_hidden_states = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return attn_outputs + feed_forward_hidden_states + residual


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    for block in params["blocks"]:
        hidden_states = encoder_block(hidden_states, block, params["heads"])
    hidden_states = layer_norm(hidden_states, params["ln_g"], params["ln_b"])
    return hidden_states[-1] @ params["W_head"] + params["b_head"]
