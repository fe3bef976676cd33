"""Figures of Chapter 2: cost-complexity paths (Breiman et al. 1984, Sec. 3.3-3.4), the path
against alpha, the choice of alpha by cross-validation, and one step of the path drawn as a
tree.

Every figure is drawn at most 7 inches wide with no text under 9 points (the book's rule,
``_check_drawing_size`` (the book's style rule)).
"""

from __future__ import annotations

import numpy as np

from prunekit.validation import as_array, check_count, check_title
from prunekit.plotting import NOTE_COLOUR, PALETTE, plot_tree, raise_font_sizes
from prunekit.regression_tree import RegressionTree

from pdtbook.figures._style import _check_drawing_size, _figure_docstring

__all__ = ["plot_alpha_selection", "plot_path_explorer"]


def _check_selection(selection) -> None:
    from prunekit.cost_complexity_pruning import AlphaSelection

    if not isinstance(selection, AlphaSelection):
        raise TypeError(f"selection must be a prunekit AlphaSelection (from cross_validate_alpha "
                        f"or holdout_alpha), got {type(selection).__name__}.")


def _check_step_curve(values, selection, name: str) -> np.ndarray | None:
    """None, or one error rate per step of ``selection``'s path."""
    if values is None:
        return None
    values = as_array(values, name, ndim=1, dtype=np.float64).astype(float)
    if values.shape != (len(selection.path),):
        raise ValueError(f"{name} must have one value per step of the path "
                         f"({len(selection.path)}), got {values.shape[0]}.")
    return values


def _alpha_axis(ax, alphas: np.ndarray) -> np.ndarray:
    """Set the alpha axis of a path plot; return the alphas with one more value, 2 alpha^K,
    so that the last step is drawn as a segment too.

    The axis is linear from 0 to alpha^2 and logarithmic above (the path's alphas spread
    over orders of magnitude, and alpha^1 = 0 has no logarithm).
    """
    extended = np.append(alphas, 2 * alphas[-1] if alphas[-1] > 0 else 1.0)
    if len(alphas) > 1:
        ax.set_xscale("symlog", linthresh=alphas[1])
        ax.set_xlabel(r"$\alpha$ (linear up to $\alpha^2$, logarithmic above)")
    else:
        ax.set_xlabel(r"$\alpha$")
    ax.set_xlim(0, extended[-1])
    return extended


def _steps(ax, x: np.ndarray, values, **style):
    return ax.step(x, np.append(values, values[-1]), where="post", **style)


def _error_curves(ax, selection, test_error, test_label: str, bars: bool = True) -> None:
    """Training, estimated and (optionally) test error of every step against alpha."""
    path = selection.path
    x = _alpha_axis(ax, path.alphas)
    _steps(ax, x, path.risks, color=PALETTE[0], label="training error")
    estimated = f"{selection.method} error"
    if bars:
        _steps(ax, x, selection.error, color=PALETTE[1])
        ax.errorbar(path.alphas, selection.error, yerr=selection.standard_error, fmt="o", ms=3,
                    capsize=2, color=PALETTE[1], label=estimated + " ± 1 SE")
    else:
        _steps(ax, x, selection.error, color=PALETTE[1], label=estimated)
    if test_error is not None:
        _steps(ax, x, test_error, color=PALETTE[2], label=test_label)
    regression = isinstance(path.tree, RegressionTree)
    ax.set_ylabel("mean squared error" if regression else "error rate")


@_figure_docstring
def plot_alpha_selection(selection, test_error=None, *, test_label: str = "test error",
                         title: str | None = None, width: float = 7.0, fontsize: float = 9):
    """A cost-complexity path and the choice of alpha on it, in two panels stacked.

    Top panel: the training error R(T^k) (left axis) and the number of leaves of T^k (right
    axis, log scale) of every tree of the path against alpha. Bottom panel: the training
    error, the estimated error with one standard error, an optional test error, the line
    "minimum estimated error + 1 SE", and the 0-SE and 1-SE choices as vertical lines. This is
    Breiman et al.'s (1984, Sec. 3.4) choice of alpha by cross-validation, drawn in Chapter 2
    for :func:`prunekit.cross_validate_alpha`.

    Parameters
    ----------
    selection : AlphaSelection
        From :func:`prunekit.cross_validate_alpha` or :func:`prunekit.holdout_alpha`.
    test_error : array-like of shape (n_steps,), optional
        An error rate (a mean squared error for a regression tree) of every step's tree,
        e.g. on a test set or the exact true error.
    test_label : str, default "test error"
        Legend label of ``test_error``.
    title : str, optional
        Prefix of the panels' titles (e.g. the data set's name).
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_selection(selection)
    test_error = _check_step_curve(test_error, selection, "test_error")
    check_title(test_label, "test_label")
    check_title(title)
    _check_drawing_size(width, fontsize)
    path = selection.path
    prefix = f"{title}: " if title else ""
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_risk, ax_err) = plt.subplots(2, 1, figsize=(width, 7.0), layout="constrained",
                                              height_ratios=[1, 1.5])
        x = _alpha_axis(ax_risk, path.alphas)
        _steps(ax_risk, x, path.risks, color=PALETTE[0])
        ax_risk.set_ylabel("training error $R(T^k)$", color=PALETTE[0])
        ax_leaves = ax_risk.twinx()
        _steps(ax_leaves, x, path.n_leaves, color=PALETTE[1])
        ax_leaves.set_ylabel("leaves of $T^k$ (log scale)", color=PALETTE[1])
        ax_leaves.set_yscale("log")
        ax_risk.set_title(prefix + "the path")
        _error_curves(ax_err, selection, test_error, test_label)
        best, one_se = selection.best, selection.one_se
        ax_err.axhline(selection.error[best] + selection.standard_error[best], color="grey",
                       ls=":", lw=1, label=f"minimum {selection.method} error + 1 SE")
        rules = ([("0-SE and 1-SE", best, "--")] if best == one_se
                 else [("0-SE", best, "--"), ("1-SE", one_se, "-.")])
        for (rule, k, style), marker in zip(rules, "ds"):
            ax_err.axvline(path.alphas[k], color="k", ls=style, lw=1, marker=marker, ms=7,
                           markevery=[0], clip_on=False,
                           label=(f"{rule}: $\\alpha$ = {path.alphas[k]:.4g}, "
                                  f"{path.n_leaves[k]} leaves"))
        ax_err.set_title(prefix + r"choosing $\alpha$")
        ax_err.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    return fig


@_figure_docstring
def plot_path_explorer(selection, step: int, test_error=None, *,
                       test_label: str = "test error", max_labelled_leaves: int = 12,
                       feature_names=None, width: float = 7.0, fontsize: float = 9):
    """One tree of a cost-complexity path above the errors along the path.

    The view of Chapter 2's explorer. Top panel: the tree T^k of ``step`` drawn on its own
    (:meth:`Pruning.to_tree`), with its split rules and class counts when it has at most
    ``max_labelled_leaves`` leaves, as dots coloured by their label otherwise. Bottom panel:
    the training error, the estimated error and an optional test error of every step against
    alpha, with the interval [alpha^k, alpha^{k+1}) of the step shaded.

    Parameters
    ----------
    selection : AlphaSelection
        From :func:`prunekit.cross_validate_alpha` or :func:`prunekit.holdout_alpha`.
    step : int
        The step of the path to draw (0 is T^1).
    test_error : array-like of shape (n_steps,), optional
        An error rate (a mean squared error for a regression tree) of every step's tree,
        e.g. the exact true error.
    test_label : str, default "test error"
    max_labelled_leaves : int, default 12
        Largest tree, in leaves, drawn with its rules and counts.
    feature_names : sequence of str, optional
        The features' names in the rules (default: the tree's own, else x0, x1, ...).
    {width_fontsize_returns}
    """
    import matplotlib.pyplot as plt

    _check_selection(selection)
    path = selection.path
    step = check_count(step, "step", maximum=len(path) - 1)
    test_error = _check_step_curve(test_error, selection, "test_error")
    check_title(test_label, "test_label")
    max_labelled_leaves = check_count(max_labelled_leaves, "max_labelled_leaves", minimum=1)
    _check_drawing_size(width, fontsize)
    drawn = path.pruning(step).to_tree()
    if feature_names is not None:
        drawn = drawn.with_feature_names(feature_names)
    labelled = drawn.n_leaves <= max_labelled_leaves
    levels = drawn.max_depth + 1
    tree_height = min(6.0, 0.2 + levels * (0.8 if labelled else 0.3))
    upper = (f"{path.alphas[step + 1]:.4g})" if step + 1 < len(path) else r"$\infty$)")
    title = (f"$T^{{{step + 1}}}$, $\\alpha$ in [{path.alphas[step]:.4g}, {upper}: "
             f"{drawn.n_leaves} of {path.tree.n_leaves} leaves")
    with plt.rc_context({"font.size": fontsize}):
        fig, (ax_tree, ax_err) = plt.subplots(
            2, 1, figsize=(width, tree_height + 3.2), layout="constrained",
            height_ratios=[tree_height, 3.2])
        plot_tree(drawn, ax=ax_tree, counts=labelled, rules=labelled,
                  max_labelled_nodes=2 * max_labelled_leaves - 1, title=title)
        raise_font_sizes(ax_tree, fontsize)
        _error_curves(ax_err, selection, test_error, test_label, bars=False)
        upper_alpha = path.alphas[step + 1] if step + 1 < len(path) else ax_err.get_xlim()[1]
        ax_err.axvspan(path.alphas[step], upper_alpha, color=NOTE_COLOUR, alpha=0.15, lw=0,
                       label="this step")
        ax_err.legend(loc="upper center", bbox_to_anchor=(0.5, 1.2), ncol=4, frameon=False)
    return fig
