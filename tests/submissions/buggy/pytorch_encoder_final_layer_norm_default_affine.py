"""Blind round 45 (b45_11, issue 38): vit_forward ported from a PyTorch vision_transformer
package's Encoder (`self.layer_norm = LayerNorm()` with its default weight and bias; `for
encoder_block in self.layers`; `return self.layer_norm(x)`), the encoder nested in vit_forward.

Mistakes:
1. The final LayerNorm runs with ones and zeros for its gain and shift, ignoring
   `params["ln_g"]` and `params["ln_b"]`. Right only when ln_g = 1 and ln_b = 0.

Grader: at blind time (fe6e9573) and now, named: "One slip, made at 2 places: (1) ... the shift
beta `beta` is left out ... (2) ... the gain gamma `gamma` is left out" on vit-forward, visible
and hidden; vit-checkpoint observes the broken vit_forward. Since blind round 47 (affine.py's
affine_not_passed) one single: "the normalisation is used without its learned scale and shift
... where the lecture's multiplies them by `params['ln_g']` and adds `params['ln_b']`". Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:affine_not_passed:vit_forward/layer_norm:affine-not-passed'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6)."""

    def encoder(x, layers, heads):
        for encoder_block_params in layers:
            x = encoder_block(x, encoder_block_params, heads)
        d = x.shape[-1]
        return layer_norm(x, np.ones(d), np.zeros(d))   # LayerNorm()

    x = embed_image(image, params)
    x = encoder(x, params["blocks"], params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
