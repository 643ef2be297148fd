"""Blind round 32 (b32_01, issue 38): graykode/nlp-tutorial, 5-1.Transformer/Transformer-Torch.py
(ScaledDotProductAttention and MultiHeadAttention as self_attention, right: CORRECT;
PoswiseFeedForwardNet and EncoderLayer, nested in encoder_block).

Mistakes:
1. encoder_block: post-LN, as graykode's sublayers return `LayerNorm(output + residual)`:
   x = LN1(x + attn(x)); x = LN2(x + ffn(x)) instead of x + attn(LN1 x), x + mlp(LN2 x).
2. encoder_block: the FFN uses ReLU (`np.maximum(0.0, ...)`, PoswiseFeedForwardNet's nn.ReLU)
   where GELU belongs. Each mistake on its own changes the output.

Grader: at blind time (a78aae9) and now, both named together: "2 mistakes at once: (1) That is a
post-LN block ... (2) The MLP uses ReLU; ViT's MLP uses GELU" (encoder_post_ln+encoder_relu) on
both encoder-block checks. vit-forward keeps its points (the grader's encoder_block standing
in); vit-checkpoint observes the broken encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln+encoder_relu'}
CORRECT = ('self_attention',)  # graykode's MultiHeadAttention, right


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), after graykode's MultiHeadAttention."""
    len_q, d_model = x.shape
    n_heads = heads
    if d_model % n_heads != 0:
        raise ValueError(f"d_model={d_model} is not divisible by n_heads={n_heads}")
    d_k = d_v = d_model // n_heads  # dimension of K(=Q), V

    def ScaledDotProductAttention(Q, K, V, attn_mask=None):
        scores = np.matmul(Q, K.swapaxes(-1, -2)) / np.sqrt(d_k)  # scores : [n_heads x len_q x len_k]
        if attn_mask is not None:
            scores = np.where(attn_mask, -1e9, scores)  # masked_fill_(attn_mask, -1e9)
        attn = softmax(scores, axis=-1)
        context = np.matmul(attn, V)
        return context, attn

    # (S, D) -proj-> (S, D) -split-> (S, H, W) -trans-> (H, S, W)
    q_s = (x @ p["Wq"] + p["bq"]).reshape(len_q, n_heads, d_k).transpose(1, 0, 2)
    k_s = (x @ p["Wk"] + p["bk"]).reshape(len_q, n_heads, d_k).transpose(1, 0, 2)
    v_s = (x @ p["Wv"] + p["bv"]).reshape(len_q, n_heads, d_v).transpose(1, 0, 2)

    attn_mask = None
    if causal:  # like the greedy decoder's dec_mask: hide the later positions
        attn_mask = np.triu(np.ones((len_q, len_q)), 1).astype(bool)
        attn_mask = np.repeat(attn_mask[None, :, :], n_heads, axis=0)

    context, attn = ScaledDotProductAttention(q_s, k_s, v_s, attn_mask=attn_mask)
    context = context.transpose(1, 0, 2).reshape(len_q, n_heads * d_v)  # [len_q x n_heads * d_v]
    output = context @ p["Wo"] + p["bo"]
    return output


def encoder_block(x, p, heads):
    """One encoder layer: enc_self_attn, then pos_ffn (graykode's EncoderLayer)."""

    def MultiHeadAttention(enc_inputs):
        residual = enc_inputs
        output = self_attention(enc_inputs, p, heads)
        return layer_norm(output + residual, p["ln1_g"], p["ln1_b"])

    def PoswiseFeedForwardNet(inputs):
        residual = inputs  # inputs : [len_q, d_model]
        output = np.maximum(0.0, inputs @ p["W1"] + p["b1"])  # conv1 (kernel_size=1) + ReLU
        output = output @ p["W2"] + p["b2"]                    # conv2
        return layer_norm(output + residual, p["ln2_g"], p["ln2_b"])

    enc_outputs = MultiHeadAttention(x)  # enc_inputs to same Q,K,V
    enc_outputs = PoswiseFeedForwardNet(enc_outputs)
    return enc_outputs
