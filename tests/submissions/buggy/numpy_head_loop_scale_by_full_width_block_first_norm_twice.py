"""Blind round 53 (b53_07, issue 38): self_attention ported from a numpy "Multi-head
self-attention" that is single-head (find_string id 56207840325: `scores = Q @ K.T /
np.sqrt(self.d_model)`), split into heads by the port; encoder_block from a ViT `Block` with one
`self.norm` used before both `mhsa` and `mlp` (find_string id 48703211431).

Mistakes:
1. self_attention splits the heads right but scales each head's scores by 1/sqrt(d), not
   1/sqrt(d_h): right with heads = 1 only. The causal mask (an additive -1e9 triangle) is right.
2. encoder_block uses ln1_g, ln1_b for both LayerNorms: the MLP branch is normalised with the
   first norm's parameters; wrong on every random block. vit_forward inherits both.

Grader: at blind time (0ec6739e) and now, both named: M1 on multi-head-attention ("You scaled by
1/sqrt(d), the model width. Each head's dot products are over d_h = d // heads numbers: scale by
1/sqrt(d_h).") and on no-causal-mask ("In `self_attention` (where each head's attention weights are
computed and applied to its values), the scores are divided by sqrt(d) (at your line `scores = q @
k.T / np.sqrt(d_model)`), the model width, instead of sqrt(d_h) = `math.sqrt(q.shape[-1])` (d_h = d
// heads)."), M2 on encoder-block ("In `encoder_block`, `layer_norm(x, p['ln2_g'], p['ln2_b'], eps)`
is given p['ln1_g'], p['ln1_b']: the parameters of the step before it, where the lecture's step has
its own (p['ln2_g'], p['ln2_b'])."); vit-checkpoint observes encoder_block. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    seq_len, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")
    d_h = d_model // heads

    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    outs = []
    for h in range(heads):
        q = Q[:, h * d_h:(h + 1) * d_h]
        k = K[:, h * d_h:(h + 1) * d_h]
        v = V[:, h * d_h:(h + 1) * d_h]

        # Scaled dot-product attention
        scores = q @ k.T / np.sqrt(d_model)
        if causal:
            scores = scores + np.triu(np.full((seq_len, seq_len), -1e9), k=1)
        attn = np.exp(scores - scores.max(axis=-1, keepdims=True))
        attn = attn / attn.sum(axis=-1, keepdims=True)
        outs.append(attn @ v)

    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    norm = lambda t: layer_norm(t, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(norm(x), p, heads)
    x = x + gelu(norm(x) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x
