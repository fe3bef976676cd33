"""Figures of Chapter 4: Kearns and Mansour's pruning, the exact experiment on the Boolean cube,
and a pruner against its parameter (also used in Chapter 8).

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import as_array, check_bool, check_real, check_title
from prunekit.plotting import NOTE_COLOUR, PALETTE, plot_tree, raise_font_sizes
from prunekit.tree import Pruning, Tree

from pdtbook.figures._style import (
    _check_drawing_size, _figure_docstring, _check_pruning_of, _mean_and_standard_error,
)

__all__ = ["plot_excess_error", "plot_pruning_explorer"]


@_figure_docstring
def plot_excess_error(sizes, excess, km_nodes, opt_nodes, grown_nodes, constants, *,
                      shown=None, width: float = 7.0, fontsize: float = 9):
    """Excess error and size of Kearns and Mansour's pruning against the sample size.

    The figure of Chapter 4's exact experiment on the Boolean cube. Top panel: for every
    constant c of ``shown``, the mean over the samples of the exact excess error
    L_D(P_KM) - eps_opt of the pruning of Kearns and Mansour (1998) against the best pruning,
    with one standard error, and dashed the reference rate sqrt(s_opt / m) of their
    Theorem 5 (mean over the samples). Bottom panel: the mean sizes |P_KM| for the same
    constants, s_opt = |P_opt| (dashed) and the grown tree |T| (dotted), on log-log axes.
    The sample size is on a log axis in both panels.

    Parameters
    ----------
    sizes : sequence of int
        The sample sizes m, positive and increasing.
    excess, km_nodes : array-like of shape (len(sizes), n_samples, len(constants))
        The excess errors L_D(P_KM) - eps_opt and the sizes |P_KM| of every run.
    opt_nodes, grown_nodes : array-like of shape (len(sizes), n_samples)
        The sizes of the best pruning P_opt and of the grown tree T of every sample.
    constants : sequence of float
        The constants c of the runs, non-negative.
    shown : sequence of float, optional
        The constants to draw, each one of ``constants``; default all of them.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_drawing_size(width, fontsize)
    sizes = as_array(sizes, "sizes", ndim=1, dtype=np.float64).astype(float)
    if np.any(sizes <= 0) or np.any(np.diff(sizes) <= 0):
        raise ValueError(f"sizes must be positive and increasing, got {sizes.tolist()}.")
    constants = as_array(constants, "constants", ndim=1, dtype=np.float64).astype(float)
    if np.any(constants < 0):
        raise ValueError(f"constants must be non-negative, got {constants.tolist()}.")
    runs = {}
    for name, values in (("excess", excess), ("km_nodes", km_nodes)):
        runs[name] = as_array(values, name, ndim=3, dtype=np.float64).astype(float)
        if runs[name].shape[0] != len(sizes) or runs[name].shape[2] != len(constants):
            raise ValueError(f"{name} must have shape (len(sizes), n_samples, len(constants)) "
                             f"= ({len(sizes)}, n_samples, {len(constants)}), got "
                             f"{runs[name].shape}.")
    n_samples = runs["excess"].shape[1]
    if runs["km_nodes"].shape != runs["excess"].shape:
        raise ValueError(f"km_nodes must have the shape of excess, {runs['excess'].shape}, got "
                         f"{runs['km_nodes'].shape}.")
    for name, values in (("opt_nodes", opt_nodes), ("grown_nodes", grown_nodes)):
        runs[name] = as_array(values, name, ndim=2, dtype=np.float64).astype(float)
        if runs[name].shape != (len(sizes), n_samples):
            raise ValueError(f"{name} must have shape (len(sizes), n_samples) = "
                             f"({len(sizes)}, {n_samples}), got {runs[name].shape}.")
        if np.any(runs[name] < 1):
            raise ValueError(f"{name} must hold numbers of nodes (at least 1).")
    if np.any(runs["km_nodes"] < 1):
        raise ValueError("km_nodes must hold numbers of nodes (at least 1).")
    if shown is None:
        columns = list(range(len(constants)))
    else:
        if isinstance(shown, (str, bytes)) or not hasattr(shown, "__iter__"):
            raise TypeError(f"shown must be a sequence of constants or None, got "
                            f"{type(shown).__name__}.")
        columns = []
        for c in shown:
            c = check_real(c, "shown[i]")
            matches = np.flatnonzero(np.isclose(constants, c))
            if len(matches) == 0:
                raise ValueError(f"shown names the constant {c:g}, which constants does not "
                                 f"contain ({constants.tolist()}).")
            columns.append(int(matches[0]))
        if not columns:
            raise ValueError("shown must name at least one constant.")
    rate = np.sqrt(runs["opt_nodes"] / sizes[:, None]).mean(axis=1)
    markers = "os^vDP*Xph"
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_err, ax_size) = plt.subplots(2, 1, figsize=(width, 8.5), layout="constrained")
        for n, k in enumerate(columns):
            colour, marker = PALETTE[n % len(PALETTE)], markers[n % len(markers)]
            mean, bar = _mean_and_standard_error(runs["excess"][:, :, k].T)
            ax_err.errorbar(sizes, mean, yerr=bar, marker=marker, capsize=3, color=colour,
                            label=f"$c = {constants[k]:g}$")
            ax_size.plot(sizes, runs["km_nodes"][:, :, k].mean(axis=1), marker=marker,
                         color=colour, label=f"$|P_{{KM}}|$, $c = {constants[k]:g}$")
        ax_err.plot(sizes, rate, "k--", label=r"$\sqrt{s_{opt}/m}$")
        ax_err.set(xscale="log", xlabel="sample size $m$ (log scale)",
                   ylabel=r"$L_\mathcal{D}(P_{KM}) - \epsilon_{opt}$ (exact)",
                   title=f"Excess error over the best pruning (mean ± s.e., "
                         f"{n_samples} samples)")
        ax_err.legend()
        ax_size.plot(sizes, runs["opt_nodes"].mean(axis=1), "k--",
                     label="$s_{opt} = |P_{opt}|$")
        ax_size.plot(sizes, runs["grown_nodes"].mean(axis=1), ":", color="grey",
                     label="grown tree $|T|$")
        ax_size.set(xscale="log", yscale="log", xlabel="sample size $m$ (log scale)",
                    ylabel="number of nodes (log scale)",
                    title=f"Sizes (mean of {n_samples} samples)")
        ax_size.legend()
    return fig


@_figure_docstring
def plot_pruning_explorer(tree: Tree, pruning: Pruning, values, n_leaves, errors, current, *,
                          parameter: str = "CF", log_scale: bool = True, counts: bool = False,
                          title: str | None = None, width: float = 7.0, fontsize: float = 9):
    """One pruning of a tree above the size and errors of a pruner along its parameter.

    The view of an interactive explorer: the top panel draws ``pruning`` on ``tree`` (removed
    part in grey); the bottom panel plots the number of leaves (left axis) and one or more
    error curves (right axis) against the pruner's parameter, with the current value marked.

    Parameters
    ----------
    tree : Tree
    pruning : Pruning
        The pruning at ``current``.
    values : array-like of shape (k,)
        The parameter values of the curves, increasing.
    n_leaves : array-like of shape (k,)
        Leaves of the pruning at every value.
    errors : dict of str to array-like of shape (k,)
        Error curves by label (e.g. training and test error rates).
    current : float
        The parameter value of ``pruning``.
    parameter : str, default "CF"
        Name of the parameter, for the axis label.
    log_scale : bool, default True
        Plot the parameter on a log scale.
    counts : bool, default False
        Write the class counts in the tree's boxes (for small trees).
    title : str, optional
        Title of the tree panel.
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_pruning_of(tree, pruning)
    _check_drawing_size(width, fontsize)
    log_scale, counts = check_bool(log_scale, "log_scale"), check_bool(counts, "counts")
    check_title(title)
    if not isinstance(parameter, str):
        raise TypeError(f"parameter must be a string, got {type(parameter).__name__}.")
    current = check_real(current, "current")
    values = as_array(values, "values", ndim=1, dtype=np.float64).astype(float)
    n_leaves = as_array(n_leaves, "n_leaves", ndim=1, dtype=np.float64).astype(float)
    if values.ndim != 1 or len(values) < 2 or np.any(np.diff(values) <= 0):
        raise ValueError("values must be at least two increasing numbers.")
    if n_leaves.shape != values.shape:
        raise ValueError(f"n_leaves must have one entry per value ({len(values)}).")
    if not isinstance(errors, dict) or not errors:
        raise TypeError("errors must be a non-empty dict mapping labels to error curves.")
    curves = {}
    for label, curve in errors.items():
        curve = as_array(curve, f"errors[{label!r}]", ndim=1, dtype=np.float64,
                         finite=False).astype(float)
        if curve.shape != values.shape:
            raise ValueError(f"errors[{label!r}] must have one entry per value ({len(values)}).")
        curves[label] = curve
    if log_scale and values[0] <= 0:
        raise ValueError("values must be positive on a log scale.")
    with plt.rc_context({"font.size": fontsize}):
        depth_height = 0.5 * (tree.max_depth + 1) if not counts else 0.75 * (tree.max_depth + 1)
        fig, (ax_tree, ax_size) = plt.subplots(
            2, 1, figsize=(width, min(6.0, depth_height) + 3.0),
            height_ratios=[min(6.0, depth_height), 3.0])
        plot_tree(tree, pruning, ax=ax_tree, counts=counts, rules=counts, title=title)
        raise_font_sizes(ax_tree, fontsize)
        ax_size.step(values, n_leaves, where="post", color="k", label="leaves")
        ax_size.set_ylabel("leaves of the pruning")
        ax_size.set_xlabel(parameter + (" (log scale)" if log_scale else ""))
        if log_scale:
            ax_size.set_xscale("log")
        ax_err = ax_size.twinx()
        for k, (label, curve) in enumerate(curves.items()):
            ax_err.step(values, curve, where="post", color=PALETTE[k % len(PALETTE)],
                        label=label)
        ax_err.set_ylabel("error rate")
        ax_size.axvline(current, color=NOTE_COLOUR, lw=1.2)
        handles = ax_size.get_legend_handles_labels()
        more = ax_err.get_legend_handles_labels()
        ax_size.legend(handles[0] + more[0], handles[1] + more[1], loc="lower center",
                       bbox_to_anchor=(0.5, 1.0), ncol=len(curves) + 1, frameon=False)
        fig.tight_layout()
    return fig
