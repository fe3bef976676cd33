"""prunekit: post-pruning of decision trees and the generalization bounds behind it.

The companion library of the open textbook *Pruning Decision Trees*. Two objects carry it:
:class:`Tree`, an immutable array-based classification tree with the class counts of its
growing sample, and :class:`Pruning`, a subtree sharing the tree's root.
"""

from prunekit import bounds, datasets, growing, heuristics, optimal, plotting
from prunekit.cost_complexity_pruning import (
    CostComplexityPath,
    cost_complexity,
    cost_complexity_path,
    cross_validate_alpha,
    holdout_alpha,
)
from prunekit.estimator import (
    CostComplexityPruner,
    CriticalValuePruner,
    CrossValidatedCostComplexityPruner,
    ErrorBasedPruner,
    HoldoutPruner,
    KearnsMansourPruner,
    KReducedErrorPruner,
    MinimumErrorPruner,
    NobelPruner,
    PessimisticPruner,
    PrunedTreeClassifier,
    Pruner,
    RademacherBoundPruner,
    ReducedErrorPruner,
)
from prunekit.export import export_text
from prunekit.growing import bottom_up_prune, grow_tree, id3
from prunekit.heuristics import (
    CriticalValuePath,
    critical_value,
    critical_value_path,
    error_based,
    error_based_raising,
    minimum_error,
    pessimistic,
)
from prunekit.kearns_mansour_pruning import kearns_mansour, kearns_mansour_global
from prunekit.nobel_pruning import best_pruning_by_size, nobel
from prunekit.optimal import Binarization, binarize, optimal_tree, penalized_risk
from prunekit.plotting import plot_tree
from prunekit.rademacher import k_reduced_error, rademacher_penalty
from prunekit.reduced_error_pruning import reduced_error
from prunekit.tree import Pruning, Tree, all_prunings, count_prunings

__all__ = [
    "Tree", "Pruning", "all_prunings", "count_prunings",
    "id3", "grow_tree", "bottom_up_prune",
    "CostComplexityPath", "cost_complexity_path", "cost_complexity", "cross_validate_alpha",
    "holdout_alpha", "reduced_error", "k_reduced_error", "rademacher_penalty",
    "kearns_mansour", "kearns_mansour_global",
    "nobel", "best_pruning_by_size",
    "pessimistic", "minimum_error", "CriticalValuePath", "critical_value_path", "critical_value",
    "error_based", "error_based_raising",
    "Pruner", "HoldoutPruner", "CostComplexityPruner", "PessimisticPruner", "MinimumErrorPruner",
    "CriticalValuePruner", "ReducedErrorPruner", "ErrorBasedPruner", "PrunedTreeClassifier",
    "CrossValidatedCostComplexityPruner", "KearnsMansourPruner", "NobelPruner",
    "KReducedErrorPruner", "RademacherBoundPruner", "export_text",
    "Binarization", "binarize", "optimal_tree", "penalized_risk",
    "bounds", "datasets", "growing", "heuristics", "optimal", "plotting", "plot_tree",
]
from importlib import metadata as _metadata  # noqa: E402

try:     # the installed distribution's version; the source's own when prunekit is not installed
    __version__ = _metadata.version("prunekit")
except _metadata.PackageNotFoundError:
    __version__ = "0.3.0"
