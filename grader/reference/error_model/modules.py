"""The operator modules, in the order their operators are tried, and every operator by name
(a name is unique across modules: `tests/test_error_model.py`)."""
from . import (
    affine,
    alternatives,
    broadcasts,
    channels,
    choices,
    chunks,
    collapse,
    contractions,
    conventions,
    counts,
    dilation,
    discarded,
    dtypes,
    fixed,
    forward,
    fused,
    grid_cuts,
    grids,
    guards,
    heads,
    inputs,
    kernel_fit,
    layouts,
    loops,
    masks,
    names,
    norms,
    omitted,
    one_map,
    operators,
    order,
    past_end,
    ports,
    projections,
    readouts,
    results,
    reversed_axes,
    row_sums,
    sequence,
    sinusoids,
    stems,
    steps,
    stride_grid,
    stride_pads,
    terms,
    tiling,
    unbiased,
    windows,
    wiring,
)

MODULES = (operators, steps, windows, names, order, norms, fused, alternatives, counts, dtypes,
           results, terms, contractions, inputs, sequence, forward, choices, chunks, heads, layouts,
           projections, unbiased, channels, grids, tiling, stems, kernel_fit, guards, fixed,
           omitted, ports, readouts, broadcasts, collapse, discarded, wiring,
           loops, reversed_axes, dilation, past_end, grid_cuts, stride_pads, stride_grid,
           conventions, row_sums, sinusoids, masks, affine,
           one_map)
PARTNERS = row_sums.PARTNERS  # two operators the search pairs as it pairs an operator's own edits
OPERATORS = {name: operator for module in MODULES for name, operator in module.OPERATORS.items()}
# the tiling test's operators: named only by checks/kinds/refusals.py (`named_refusal`), which
# also runs the student's code on probe sizes the check's cases may lack (a `|` for `or` and a
# width-only test agree on many sizes); the search never tries them
NAMED_ELSEWHERE = frozenset((*tiling.REFUSAL_OPERATORS, *tiling.AFTER_REFUSAL,
                             *kernel_fit.REFUSAL_OPERATORS,  # the convolution's kernel test
                             *guards.REFUSAL_OPERATORS))  # and the student's own guards
