"""Blind round 38 (b38_11, issue 38): a Keras visionTransformer / encoder_block (code-search
file id 15192806598: "take cls token", then Dense(out_dim, activation='tanh')); encoder_block
is the source's MSA and FFN each after a LayerNormalization, right (CORRECT).

Mistakes:
1. vit_forward: the head is `tanh(x[0] @ W_head + b_head)` (the source's tanh Dense head): the
   logits are squashed into (-1, 1).

Grader: at blind time (60400f1) and now, named: "the result `linear(x[0], params['W_head'],
params['b_head'])` goes through tanh before it is returned" on vit-forward; vit-checkpoint
observes it. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:output_activation:vit_forward:result-through-tanh'}
CORRECT = ('encoder_block',)


def encoder_block(x, p, heads):
    """encoder_block: MSA with a residual, then FFN with a residual, each after a LayerNormalization."""
    # MSA
    inpt = x
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = self_attention(x, p, heads)   # self-attention
    x = inpt + x
    # FFN
    inpt = x
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])
    x = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    x = inpt + x
    return x


def vit_forward(image, params):
    """visionTransformer: embeddings, the encoder blocks, LayerNormalization, the cls token, Dense."""
    x = embed_image(image, params)            # [N+1, D]
    # transformer encoder
    for i in range(len(params["blocks"])):
        x = encoder_block(x, params["blocks"][i], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # take cls token
    x = x[0, :]                               # [D]
    x = np.tanh(x @ params["W_head"] + params["b_head"])
    return x
