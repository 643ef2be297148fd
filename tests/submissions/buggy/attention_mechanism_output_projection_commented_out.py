"""Blind round 68 (b68_08, issue 38): self_attention and vit_forward ported from
joseph-nagel/attention-mechanism `atttools/attention.py` (attend, MultiheadSelfAttention) and
`atttools/vit/classifier.py` (ClassifierHead: LayerNorm on the [CLS] row, then Linear):
vit_forward right. The student's top-level `attend` is nested in self_attention here: the
builder replaces only the solution's own definitions.

Mistakes:
16. self_attention (line 185 of the file as delivered): the output linear layer commented out as
    in the source, `# x = x @ p["Wo"] + p["bo"]`: the concatenated heads are returned without
    the output projection. Wrong on any input.

Grader: at blind time (766069c5) and now, 95/110, named on no-causal-mask's two failed checks
("In `self_attention`, the output projection (`... @ p['Wo'] + p['bo']`) is left out: its input
goes on as it is") and multi-head-attention's three ("After putting the heads side by side,
apply the output projection: @ Wo + bo."); vit-checkpoint observes the broken `self_attention`.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_no_output_projection',
          'no-causal-mask': 'op:skip:self_attention:skip-linear.4'}
CORRECT = ('vit_forward',)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    def attend(Q, K, V, scale=True, mask=None):
        """Compute (scaled) dot-product attention."""
        # compute alignment scores
        algn_scores = Q @ K.T
        if scale:
            d_k = K.shape[-1]
            algn_scores = algn_scores / math.sqrt(d_k)
        if mask is not None:
            algn_scores = np.where(mask, algn_scores, -np.inf)
        # compute attention weights
        attn_weights = softmax(algn_scores, axis=-1)
        # compute attention
        attn = attn_weights @ V
        return attn

    # consider dimensionality
    embed_dim = x.shape[-1]
    if embed_dim % heads == 0:
        head_dim = embed_dim // heads
    else:
        raise ValueError('Embedding dim. must be divisible by head number ')
    mask = np.tril(np.ones((x.shape[0], x.shape[0]), dtype=bool)) if causal else None

    # run attention heads (each head has its own d_x -> head_dim queries, keys and values)
    outs = []
    for h in range(heads):
        cols = slice(h * head_dim, (h + 1) * head_dim)
        Q = x @ p["Wq"][:, cols] + p["bq"][cols]
        K = x @ p["Wk"][:, cols] + p["bk"][cols]
        V = x @ p["Wv"][:, cols] + p["bv"][cols]
        outs.append(attend(Q, K, V, scale=True, mask=mask))
    x = np.concatenate(outs, axis=-1)

    # run linear layer
    # x = x @ p["Wo"] + p["bo"]

    return x


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    # ClassifierHead: ln on the cls token, then linear
    cls_token = x[0]
    out = layer_norm(cls_token, params["ln_g"], params["ln_b"])
    out = out @ params["W_head"] + params["b_head"]
    return out
