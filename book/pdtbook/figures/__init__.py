"""The figures of the book's chapters, one module per chapter (``ch01`` ... ``ch11``), and
of the page "Using prunekit with scikit-learn" (``practice``).

Every figure here follows the book's style rule (``pdtbook.figures._style``): at most
7 inches wide, no text under 9 points. A chapter imports its figures from this package::

    from pdtbook.figures import plot_growth, plot_growth_explorer

Drawing trees and prunings is the core's (:func:`prunekit.plot_tree`,
:func:`prunekit.plotting.plot_prunings`).
"""

from pdtbook.figures._style import show_inline_figures_sharp
from pdtbook.figures.ch01 import plot_growth, plot_growth_explorer, plot_tree_figure
from pdtbook.figures.ch02 import plot_alpha_selection, plot_path_explorer
from pdtbook.figures.ch03 import plot_pruning_share
from pdtbook.figures.ch04 import plot_excess_error, plot_pruning_explorer
from pdtbook.figures.ch05 import (
    plot_chosen_prunings, plot_excess_risk, plot_partitions, plot_size_profile,
)
from pdtbook.figures.ch06 import plot_bounds_by_data_set, plot_penalty_budget
from pdtbook.figures.ch07 import plot_c_effect
from pdtbook.figures.ch08 import plot_leaf_prices, plot_upper_limit
from pdtbook.figures.ch09 import (
    plot_critical_difference, plot_noise, plot_pareto, plot_ranks,
)
from pdtbook.figures.ch10 import plot_gap, plot_solver_times
from pdtbook.figures.ch11 import (
    regression_study_critical_difference, regression_study_ranks,
    regression_study_size_error,
)
from pdtbook.figures.practice import plot_sklearn_tree

__all__ = [
    # chapter 1
    "plot_tree_figure", "plot_growth", "plot_growth_explorer",
    # chapter 2
    "plot_alpha_selection", "plot_path_explorer",
    # chapter 3
    "plot_pruning_share",
    # chapter 4
    "plot_excess_error", "plot_pruning_explorer",
    # chapter 5
    "plot_partitions", "plot_size_profile", "plot_excess_risk", "plot_chosen_prunings",
    # chapter 6
    "plot_penalty_budget", "plot_bounds_by_data_set",
    # chapter 7
    "plot_c_effect",
    # chapter 8
    "plot_upper_limit", "plot_leaf_prices",
    # chapter 9
    "plot_critical_difference", "plot_pareto", "plot_ranks", "plot_noise",
    # chapter 10
    "plot_gap", "plot_solver_times",
    # chapter 11
    "regression_study_critical_difference", "regression_study_size_error",
    "regression_study_ranks",
    # using prunekit with scikit-learn
    "plot_sklearn_tree",
]

# In a notebook, the book's figures are shown as 2x PNGs at the size they are drawn at.
show_inline_figures_sharp()
