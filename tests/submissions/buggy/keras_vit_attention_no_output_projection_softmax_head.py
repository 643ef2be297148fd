"""Blind round 40 (b40_07, issue 38): self_attention and vit_forward ported from a
TensorFlow/Keras ViT (code-search file id 1228883800: multiHeadAttentionLayer with `multi_head =
linear(head)`, keras.activations.linear the identity; the output Dense(num_classes,
activation='softmax')).

Mistakes:
1. self_attention: no output projection: the heads are concatenated and returned without
   `@ Wo + bo`.
2. vit_forward: the head's output goes through a softmax: probabilities instead of logits.

Grader: at blind time (b589706) and now, named: "the step `linear(out, p['Wo'], p['bo'])` is left
out" on the causal checks, "apply the output projection: @ Wo + bo" on multi-head-attention, and
"the result ... goes through a softmax over its last axis (a head built with
activation='softmax')" on vit-forward (graded with the grader's self_attention); vit-checkpoint
observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:skip:self_attention:skip-linear.4',
          'multi-head-attention': 'attention_no_output_projection',
          'vit-forward': 'op:output_activation:vit_forward:result-through-softmax'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6)."""
    T, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")

    def re1(t):                      # Reshape((-1, head, d_model // head))
        return t.reshape(-1, heads, d_model // heads)

    def permute(t):                  # Permute((2, 1, 3))
        return t.transpose(1, 0, 2)

    def re2(t):                      # Reshape((-1, d_model))
        return t.reshape(-1, d_model)

    def linear(t):                   # tensorflow.keras.activations.linear
        return t

    def scaledDotProductAttention(q, k, v):
        qk = q @ k.transpose(0, 2, 1) / np.sqrt(k.shape[-1])
        if causal:
            qk = np.where(np.tril(np.ones((T, T), dtype=bool)), qk, -np.inf)
        return softmax(qk, axis=-1) @ v

    q = x @ p["Wq"] + p["bq"]        # q_d
    k = x @ p["Wk"] + p["bk"]        # k_d
    v = x @ p["Wv"] + p["bv"]        # v_d
    q_s, k_s, v_s = permute(re1(q)), permute(re1(k)), permute(re1(v))
    head = scaledDotProductAttention(q_s, k_s, v_s)
    head = re2(permute(head))
    multi_head = linear(head)
    return multi_head


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""
    x = embed_image(image, params)
    for t_layer in params["blocks"]:
        x = encoder_block(x, t_layer, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    y = x[0] @ params["W_head"] + params["b_head"]
    outputs = softmax(y)
    return outputs
