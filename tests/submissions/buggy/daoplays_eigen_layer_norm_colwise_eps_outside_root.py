"""Blind round 47 (b47_03, issue 38): layer_norm ported from daoplays/transformer (C++ / Eigen),
src/transformer/norm_layer.cpp norm_layer_t::forward (`x.colwise().mean()`, the biased standard
deviation `(... .colwise().sum() / x.rows()).sqrt()`, `x_norm = (x - mean) / (std + eps)`).

Mistakes:
1. Statistics over axis 0 (Eigen's colwise on a [seq_len, d_model] matrix): each feature is
   normalised over the tokens, not each token over its own d features. Wrong on every input.
2. eps added to the standard deviation, outside the square root: `(x - mean) / (sqrt(var) +
   eps)` instead of `/ np.sqrt(var + eps)`. Shows on low-variance rows.

Grader: at blind time (a4c32119) and now, named: "You normalised over the tokens (axis 0) ..." on
small examples; "2 mistakes at once: (1) One slip, made at 2 places: (a) ... (b) ...": the mean's
and the variance's axis 0, and "(2) In `layer_norm`, `eps` is added outside the square root ..."
on "eps inside the square root" and hidden (the heading counted three items as two before); vit-checkpoint observes layer_norm. Since session 32
those two checks name the pair of their listed variants that fits every call instead
(kinds/mistakes.py, `widened`: "2 mistakes at once: (1) eps goes inside the square root ...
(2) You normalised over the tokens (axis 0)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside+layer_norm_wrong_axis'}
ALIASES = ('layer_norm_wrong_axis',)


def layer_norm(x, gamma, beta, eps=1e-6):
    """norm_layer_t::forward: colwise mean and (biased) std, x_norm = (x - mean) / (std + eps)."""
    mean = x.mean(axis=0)                                          # x.colwise().mean()
    var = np.sqrt(np.square(x - mean).sum(axis=0) / x.shape[0])    # (... .colwise().sum() / x.rows()).sqrt()
    x_norm = (x - mean) / (var + eps)
    return x_norm * gamma + beta
