"""Blind round 68 (b68_07, issue 38): self_attention, vit_forward and ANSWERS ported from
yusung410/Vision-Transformer-Challenge `vit/msa.py` (MSA), `vit/vit.py` (ViT.forward) and its
README.md (a ViT trained from scratch on CIFAR-10).

Mistakes:
13. self_attention (lines 155 and 162 of the file as delivered): `scale = head_dim ** -0.5` is
    computed but never applied (the source's bug): the scores are unscaled. Wrong on any input
    with d_h > 1.
14. vit_forward (lines 195-201): like the source (one TransformerEncoder called 4 times), it
    applies `params["blocks"][0]` four times and ignores the other blocks. Wrong for every model
    that is not exactly 4 copies of block 0. (The head applied before `[0]` is equivalent: not a
    mistake.)
15. ANSWERS["medical"] (line 216): "scratch" instead of "pretrained".

Grader: at blind time (766069c5) and now, 86/110. Mistake 13 named on no-causal-mask's two
failed checks and multi-head-attention's three ("Your values are those of attention whose scores
come out unscaled on these calls: divide q k^T by sqrt(d_h) ... (if your code has a scale, on
these calls it acts as 1: check how it is computed)"); mistake 15 on pretrained-or-scratch ("A
from-scratch ViT needs a large image set"); mistake 14 not told at blind time: vit-forward's two
checks gave the checklist only ("Check the order: embed, every block of params["blocks"], the
final LayerNorm ..."); vit-checkpoint observes the broken functions. Mistake 14 named since (session
32, error_model/item_loops.py: item 0 of a loop's list applied a fixed number of times, 2 to 12,
whatever its length, told by the cases' one- and two-block models) on vit-forward's two checks:
"In `vit_forward`, `params['blocks'][0]` is applied 4 times, whatever the number of items in
`params['blocks']`: the loop ... applies each block once, in order, `params['blocks'][i]` (block
i) at step i"; every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_no_scale',
          'no-causal-mask': 'attention_no_scale',
          'pretrained-or-scratch': 'medical:scratch',
          'vit-forward': 'op:first_fixed_times:vit_forward:block-0-4-times'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    N, C = x.shape  # [N, Channel]
    if C % heads:  # dim은 num_heads로 나누어져야 한다.
        raise ValueError(f"dim {C} is not divisible by {heads} heads")
    num_heads = heads  # multi-head의 개수
    head_dim = C // num_heads  # 각 head의 dimension
    scale = head_dim ** -0.5  # head의 dimension으로 정규화

    # qkv를 만들고, multi-head로 나눈다.
    W_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ W_qkv + b_qkv).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ k.transpose(0, 2, 1))  # Q, K를 내적하여 attention score 계산
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)

    attn = softmax(attn, axis=-1)  # attention score를 softmax로 정규화

    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)  # attention score와 V를 곱하고 다시 projection
    x = x @ p["Wo"] + p["bo"]
    return x


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    transformer_encoder = params["blocks"][0]
    heads = params["heads"]
    x = embed_image(image, params)
    x = encoder_block(x, transformer_encoder, heads)
    x = encoder_block(x, transformer_encoder, heads)
    x = encoder_block(x, transformer_encoder, heads)
    x = encoder_block(x, transformer_encoder, heads)
    x = layer_norm(x, params["ln_g"], params["ln_b"])  # final norm
    x = (x @ params["W_head"] + params["b_head"])[0]  # classification_head(x)[:, 0]
    return x


ANSWERS["medical"] = "scratch"  # a ViT trained from scratch on CIFAR-10 still reaches ~90% (ViT challenge)
