"""The classic pruning heuristics: PEP, MEP, CVP and C4.5's error-based pruning.

Chapter 8 of the book. Every function here maps a grown :class:`~prunekit.Tree` to a
:class:`~prunekit.Pruning` (subtree raising, which leaves the class of prunings, returns a new
:class:`~prunekit.Tree`).
"""

from __future__ import annotations

# ---------------------------------------------------------------------------------------------
# Error-based pruning (C4.5 / Weka J48)


# ---------------------------------------------------------------------------------------------
# Pessimistic, minimum-error and critical-value pruning
