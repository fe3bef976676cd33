"""The former module of the classic heuristics, deprecated: it will be removed in 0.4.

Each method now has its own module, named for it, with its pruner beside its function:

* :mod:`prunekit.error_based_pruning`: C4.5's error-based pruning (``estimated_errors``,
  ``upper_confidence_limit``, ``collapse``, ``error_based``, ``error_based_raising``);
* :mod:`prunekit.pessimistic_pruning`: Quinlan's pessimistic error pruning;
* :mod:`prunekit.minimum_error_pruning`: minimum-error pruning and the m-estimate;
* :mod:`prunekit.critical_value_pruning`: Mingers' critical-value pruning.

Importing this module warns (``DeprecationWarning``) and gives every name it used to hold,
from its new module.
"""

from prunekit._deprecation import warn_module_moved
from prunekit.critical_value_pruning import (  # noqa: F401
    SELECTION_MEASURES,
    CriticalValuePath,
    critical_value,
    critical_value_path,
    split_measure,
)
from prunekit.error_based_pruning import (  # noqa: F401
    _added_errors,
    check_confidence,
    _node_estimates,
    _normal_inverse,
    sm_or_eq,
    collapse,
    error_based,
    error_based_raising,
    estimated_errors,
    upper_confidence_limit,
)
from prunekit.minimum_error_pruning import (  # noqa: F401
    MinimumErrorEstimates,
    m_estimate_error,
    minimum_error,
    minimum_error_estimates,
)
from prunekit.pessimistic_pruning import (  # noqa: F401
    PEP_ORDERS,
    PessimisticErrors,
    pessimistic,
    pessimistic_errors,
    pessimistic_standard_error,
)

__all__ = [
    "upper_confidence_limit", "estimated_errors", "collapse", "error_based",
    "error_based_raising",
    "PEP_ORDERS", "PessimisticErrors", "pessimistic_errors", "pessimistic_standard_error",
    "pessimistic",
    "MinimumErrorEstimates", "m_estimate_error", "minimum_error_estimates", "minimum_error",
    "SELECTION_MEASURES", "split_measure", "CriticalValuePath", "critical_value_path",
    "critical_value",
]

warn_module_moved("prunekit.heuristics", ["prunekit.error_based_pruning",
                                          "prunekit.pessimistic_pruning",
                                          "prunekit.minimum_error_pruning",
                                          "prunekit.critical_value_pruning"])
