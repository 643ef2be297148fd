"""Blind round 77 (b77_12, issue 38): layer_norm and encoder_block ported from
mugi0GH/knowledge_network `basic/nlp/2.Mechanism/Transformer/4.Resi_Norm.py`.

Mistakes:
1. layer_norm (line 79 of the file as delivered): `/ (x.std(axis=-1, ddof=1, keepdims=True) +
   eps)` (torch's `x.std()` is unbiased, the source adds eps to the std): the unbiased variance
   and eps outside the square root. Wrong on every input.
2. encoder_block (lines 110-111): post-LN, "residual then norm": `x = LN(x + attn(x))`, `x =
   LN(x + mlp(x))` instead of pre-LN. Wrong on every input.
The delivered file's top-level helper `feed_forward` is nested in encoder_block here.

Grader: at blind time (15b4065f) and now, 94/110. Mistake 1 named on layer-norm ("2 mistakes at
once: (1) You used the unbiased variance (ddof=1 ...) ... (2) ... eps goes inside the square
root"), mistake 2 on encoder-block ("That is a post-LN block"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside',
          'encoder-block': 'encoder_post_ln'}


def layer_norm(x, gamma, beta, eps=1e-6):
    # 层归一化包含两个可以学习的参数 (alpha = gamma, bias = beta)
    norm = gamma * (x - x.mean(axis=-1, keepdims=True)) \
        / (x.std(axis=-1, ddof=1, keepdims=True) + eps) + beta
    return norm


def encoder_block(x, p, heads):
    # 残差连接 + 层归一化
    def feed_forward(x, p):
        return gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    x = layer_norm(x + feed_forward(x, p), p["ln2_g"], p["ln2_b"])
    return x
