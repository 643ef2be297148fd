"""The operator modules, in the order their operators are tried, and every operator by name
(a name is unique across modules: `tests/test_error_model.py`)."""
from . import (
    affine,
    alternatives,
    bias_layout,
    broadcasts,
    call_eps,
    channels,
    choices,
    chunks,
    clamped,
    collapse,
    column_major,
    columns,
    confused_ops,
    contractions,
    conventions,
    counts,
    dilation,
    discarded,
    dtypes,
    equal_blocks,
    every_map,
    fixed,
    floored_max,
    forward,
    fused,
    grid_count,
    grid_cuts,
    grid_end,
    grid_sides,
    grids,
    guards,
    head_pairs,
    heads,
    inner_norm,
    inputs,
    item_loops,
    kernel_fit,
    later_steps,
    layouts,
    leading_axes,
    logsumexp,
    loops,
    masks,
    names,
    norms,
    omitted,
    one_map,
    operators,
    order,
    output_prefix,
    past_end,
    ports,
    post_norm_block,
    projections,
    readouts,
    renormalised,
    reshaped_weights,
    results,
    reversed_axes,
    rgb_only,
    rolled_rows,
    row_sums,
    sequence,
    sinusoids,
    square_grid,
    stems,
    steps,
    stride_grid,
    stride_pads,
    terms,
    tiling,
    unbiased,
    uncut_heads,
    windows,
    wiring,
)

MODULES = (operators, steps, windows, names, order, norms, fused, alternatives, every_map,
           counts, dtypes,
           results, terms, contractions, inputs, sequence, forward, choices, chunks, heads,
           head_pairs, uncut_heads, layouts,
           projections, unbiased, channels, grids, tiling, equal_blocks, stems, kernel_fit,
           guards, fixed, omitted, ports, readouts, broadcasts, collapse, discarded, wiring,
           loops, reversed_axes, dilation, past_end, grid_cuts, stride_pads, stride_grid,
           conventions, row_sums, sinusoids, masks, affine,
           one_map, grid_end, bias_layout, rgb_only, columns, floored_max,
           logsumexp, output_prefix, grid_sides, square_grid, grid_count,
           column_major, clamped, rolled_rows, call_eps, leading_axes,
           item_loops, reshaped_weights, post_norm_block, later_steps, confused_ops,
           inner_norm, renormalised)
# operators whose edits at one place set values these inputs may not tell apart: an axis (1 and
# -1 on 2-D inputs: only one axis of the array it reduces on the calls, aliases.same_axis), a
# clip, a floored max, a clamped step, a square grid's root floored or rounded (aliases.py)
ALIKE_OPERATORS = frozenset(("axis", "clip", "max_floored", "clamped", *square_grid.OPERATORS))
# operators whose detail ends `.axis=<n>`, the axis a reduction or a helper's call takes
# (operators.axis; renormalised.py's, that axis and a division after it): two at one place
# that are one axis of the array on the calls are one claim (aliases.same_axis)
AXIS_OPERATORS = frozenset(("axis", *renormalised.OPERATORS))
# a form edit's detail -> its reading in the model solution's own form (plain_forms.py)
PLAIN_FORMS = dict(logsumexp.PLAIN)
UNPAIRED = column_major.UNPAIRED | leading_axes.UNPAIRED  # left out of the search's silent partners
# two operators the search pairs as it pairs an operator's own edits
PARTNERS = row_sums.PARTNERS | post_norm_block.PARTNERS
OPERATORS = {name: operator for module in MODULES for name, operator in module.OPERATORS.items()}
# operators whose singles the search tries only where no other rewrite, single or pair,
# reproduces the calls (error_model.search): rare mistakes (a renormalisation, an activation's
# typos) whose rewrites every failed check's search would otherwise pay for
LATE = renormalised.LATE | alternatives.LATE
# the tiling test's operators: named only by checks/kinds/refusals.py (`named_refusal`), which
# also runs the student's code on probe sizes the check's cases may lack (a `|` for `or` and a
# width-only test agree on many sizes); the search never tries them
NAMED_ELSEWHERE = frozenset((*tiling.REFUSAL_OPERATORS, *tiling.AFTER_REFUSAL,
                             *equal_blocks.OPERATORS,  # tried last, after a tiling test
                             *kernel_fit.REFUSAL_OPERATORS,  # the convolution's kernel test
                             *guards.REFUSAL_OPERATORS))  # and the student's own guards
