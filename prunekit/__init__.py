"""prunekit: post-pruning of decision trees and the generalization bounds behind it.

The companion library of the open textbook *Pruning Decision Trees*. Two objects carry it:
:class:`Tree`, an immutable array-based classification tree with the class counts of its
growing sample, and :class:`Pruning`, a subtree sharing the tree's root.
"""

from prunekit import bounds, datasets, growing, optimal, plotting
from prunekit.bottom_up_pruning import bottom_up_prune
from prunekit.cost_complexity_pruning import (
    CostComplexityPath,
    CostComplexityPruner,
    CrossValidatedCostComplexityPruner,
    cost_complexity,
    cost_complexity_path,
    cross_validate_alpha,
    holdout_alpha,
)
from prunekit.critical_value_pruning import (
    CriticalValuePath,
    CriticalValuePruner,
    critical_value,
    critical_value_path,
)
from prunekit.error_based_pruning import ErrorBasedPruner, error_based, error_based_raising
from prunekit.estimator import PrunedTreeClassifier
from prunekit.export import export_text, to_sklearn
from prunekit.forest import prune_forest
from prunekit.gey_nedelec_pruning import (
    GeyNedelecPruner,
    gey_nedelec,
    gey_nedelec_alpha,
    residual_variance,
)
from prunekit.growing import grow_tree, id3
from prunekit.k_reduced_error_pruning import KReducedErrorPruner, k_reduced_error
from prunekit.kearns_mansour_pruning import (
    KearnsMansourPruner,
    kearns_mansour,
    kearns_mansour_global,
)
from prunekit.minimum_error_pruning import MinimumErrorPruner, minimum_error
from prunekit.regression_estimator import PrunedTreeRegressor
from prunekit.regression_tree import RegressionTree
from prunekit.nobel_pruning import NobelPruner, best_pruning_by_size, nobel
from prunekit.optimal import (
    Binarization,
    OptimalTreeClassifier,
    binarize,
    optimal_tree,
    penalized_risk,
)
from prunekit.pessimistic_pruning import PessimisticPruner, pessimistic
from prunekit.plotting import plot_tree
from prunekit.pruner import HoldoutPruner, Pruner
from prunekit.rademacher import RademacherBoundPruner, rademacher_penalty
from prunekit.reduced_error_pruning import ReducedErrorPruner, reduced_error
from prunekit.tree import Pruning, Tree, all_prunings, count_prunings

__all__ = [
    "Tree", "RegressionTree", "Pruning", "all_prunings", "count_prunings",
    "id3", "grow_tree", "bottom_up_prune",
    "CostComplexityPath", "cost_complexity_path", "cost_complexity", "cross_validate_alpha",
    "holdout_alpha", "reduced_error", "k_reduced_error", "rademacher_penalty",
    "kearns_mansour", "kearns_mansour_global",
    "nobel", "best_pruning_by_size",
    "gey_nedelec", "gey_nedelec_alpha", "residual_variance",
    "pessimistic", "minimum_error", "CriticalValuePath", "critical_value_path", "critical_value",
    "error_based", "error_based_raising",
    "Pruner", "HoldoutPruner", "CostComplexityPruner", "PessimisticPruner", "MinimumErrorPruner",
    "CriticalValuePruner", "ReducedErrorPruner", "ErrorBasedPruner", "PrunedTreeClassifier",
    "PrunedTreeRegressor",
    "CrossValidatedCostComplexityPruner", "KearnsMansourPruner", "NobelPruner",
    "KReducedErrorPruner", "RademacherBoundPruner", "GeyNedelecPruner",
    "export_text", "to_sklearn", "prune_forest",
    "Binarization", "binarize", "optimal_tree", "OptimalTreeClassifier", "penalized_risk",
    "bounds", "datasets", "growing", "optimal", "plotting", "plot_tree",
]


def __getattr__(name: str):
    """``prunekit.heuristics``, the deprecated module of the classic heuristics, on first use."""
    if name == "heuristics":
        import importlib

        return importlib.import_module("prunekit.heuristics")   # warns: DeprecationWarning
    raise AttributeError(f"module 'prunekit' has no attribute {name!r}")

from importlib import metadata as _metadata  # noqa: E402

try:     # the installed distribution's version; the source's own when prunekit is not installed
    __version__ = _metadata.version("prunekit")
except _metadata.PackageNotFoundError:
    __version__ = "0.3.0"
