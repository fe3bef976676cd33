"""R's rpart from Python: grow a tree with rpart, rebuild it in prunekit, compare its cp table.

rpart (Therneau & Atkinson) grows classification trees (``method = "class"``) and
regression trees (``method = "anova"``, squared error) and prunes both by cost complexity;
it measures alpha as ``cp``, in units of the root's risk, and ``prune(fit, cp)`` snips off
every split whose complexity is at most ``cp``. :func:`grow_rpart` runs :data:`RPART_SCRIPT`
with ``Rscript`` (R with the rpart package: on Debian
``sudo apt-get install r-base-core r-cran-rpart``, or ``make rpart``), rebuilds rpart's tree
as a :class:`~prunekit.Tree` or, for ``method = "anova"``, a
:class:`~prunekit.RegressionTree` (:class:`RpartTree`), and :func:`compare_rpart` sets
rpart's cp table and ``prune`` against the exact weakest-link sequence of
:func:`prunekit.cost_complexity_path` (Breiman et al. 1984, ch. 3, and ch. 8 for regression
trees). Chapter 9 reports the comparison (:func:`pdtbook.study.rpart_study`,
``python -m pdtbook.study --rpart``) and the small tree of :func:`rpart_example`, on which
``prune`` misses the minimiser.

rpart's complexities come from one bottom-up pass (its C routine ``partition``, with
``fix_cp`` capping a child's cp at its parent's): a node's cp is computed on its subtree
pruned at the node's own cp, and that pruned subtree is what its parent sees. When the
parent's cp is lower than a child's, the child's split survives past the parent's cp in the
exact sequence but not in rpart's arithmetic, so rpart's cp of the parent (and, through the
cap, of its descendants) can fall below the exact weakest-link value, under squared error as
under misclassification. See :func:`compare_rpart`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from prunekit.validation import check_count
from prunekit.cost_complexity_pruning import cost_complexity_path
from prunekit.datasets import make_boolean_dnf
from prunekit.regression_tree import RegressionTree
from prunekit.tree import Pruning, Tree

__all__ = [
    "RPART_SCRIPT", "RPART_MINSPLIT", "RPART_MINBUCKET", "RpartTree", "rpart_tree_from_frame",
    "rpart_available", "grow_rpart", "rpart_frame", "compare_rpart", "RPART_EXAMPLE",
    "rpart_example",
]

#: The R script that grows a tree with rpart and writes its frame, splits and cp table.
RPART_SCRIPT = Path(__file__).with_name("rpart_export.R")
#: rpart.control's defaults for the smallest node to split and the smallest leaf.
RPART_MINSPLIT, RPART_MINBUCKET = 20, 7


@dataclass(frozen=True, eq=False)
class RpartTree:
    """A tree grown by R's rpart, rebuilt as a prunekit :class:`~prunekit.Tree`.

    Attributes
    ----------
    tree : Tree or RegressionTree
        Node i is row i of rpart's frame (preorder); a classification tree's counts are
        rpart's class counts, an anova tree's moments (weight, mean, sum of squared
        deviations) those of its growing sample, rpart's ``n``, ``yval`` and ``dev``, and
        the split rules route every example as rpart does.
    node : ndarray of int
        rpart's node numbers (root 1, children 2n and 2n + 1).
    complexity : ndarray of float
        rpart's ``frame$complexity`` per node: the cp at which rpart's ``prune`` removes the
        node's split, in units of the root's risk.
    cptable : ndarray of float
        The ``CP`` column of rpart's cp table, decreasing.
    """

    tree: Tree | RegressionTree
    node: np.ndarray
    complexity: np.ndarray
    cptable: np.ndarray

    def prune(self, cp: float) -> Pruning:
        """What ``prune(fit, cp)`` keeps: every split whose complexity is at most ``cp`` is
        snipped off (``prune.rpart``: ``toss <- id[ff$complexity <= cp & ...]``)."""
        return Pruning.from_collapsed(self.tree, (self.complexity <= cp) & ~self.tree.is_leaf)

    @property
    def root_errors(self) -> int:
        """Misclassified examples at the root of a classification tree, R(root) in counts:
        cp = alpha n / R(root). For either kind of tree use :attr:`root_risk`."""
        if not isinstance(self.tree, Tree):
            raise TypeError("root_errors counts misclassified examples; an anova tree's "
                            "R(root) is root_risk.")
        counts = self.tree.counts[0]
        return int(counts.sum() - counts.max())

    @property
    def root_risk(self) -> float:
        """R(root), the unit of rpart's cp (rpart's ``frame$dev`` of node 1).

        The root's misclassified examples (:attr:`root_errors`) for a classification tree;
        for an anova tree the root's sum of squared deviations from the mean,
        sum_i (y_i - ybar)^2. rpart's vignette (Therneau & Atkinson, "An Introduction to
        Recursive Partitioning Using the RPART Routines", sections "Pruning the tree" and
        "Regression") defines R_alpha(T) = R(T) + alpha |T| with R the residual sum of
        squares for the anova method, and scales cp by R(T_0), the root's risk.
        """
        if isinstance(self.tree, Tree):
            return self.root_errors
        return float(self.tree.leaf_errors()[0])

    def alpha(self, cp: float) -> float:
        """prunekit's alpha for rpart's ``cp``: cp R(root) / n.

        prunekit's alpha is a risk per leaf per example (errors / n, or squared error / n),
        rpart's cp a risk per leaf in units of R(root), so alpha n = cp R(root).
        """
        return cp * self.root_risk / self.tree.n_samples

    def exact_complexity(self) -> np.ndarray:
        """The exact weakest-link cp of every node.

        The alpha at which :func:`prunekit.cost_complexity_path` collapses the node (or
        cuts it away with an ancestor), times n and divided by R(root), as the weakest-link
        sequence of Breiman et al. (1984, ch. 3; ch. 8 under squared error) would set
        rpart's ``frame$complexity``; ``inf`` at leaves.
        """
        path = cost_complexity_path(self.tree, "error")
        return path.node_alpha * self.tree.n_samples / self.root_risk

    def exact_cptable(self) -> np.ndarray:
        """The distinct cps of the exact weakest-link sequence, decreasing (rpart's order),
        ending with 0."""
        path = cost_complexity_path(self.tree, "error")
        return (path.alphas * self.tree.n_samples / self.root_risk)[::-1]

    def smallest_minimiser(self, cp: float) -> Pruning:
        """The smallest pruning minimising R_alpha at alpha = cp R(root) / n.

        As :func:`prunekit.cost_complexity` finds it, except that a cp within a relative
        1e-9 of a node's exact cp counts as equal to it (rpart's cps are rounded doubles,
        and ``cost_complexity(tree, self.alpha(cp))`` at a breakpoint can round to just
        below it and keep the split).
        """
        exact = self.exact_complexity()
        return Pruning.from_collapsed(self.tree, (exact <= cp * (1 + 1e-9)) & ~self.tree.is_leaf)

    def cost(self, pruning: Pruning, cp: float) -> float:
        """R_alpha(P) / R(root) = (R(P) + cp R(root) |leaves(P)|) / R(root), the cost
        rpart's cp measures, on the growing sample: R(P) is the misclassified examples of a
        classification tree, the sum of squared errors of an anova tree."""
        root = self.root_risk
        return (pruning.errors() + cp * root * pruning.n_leaves) / root


def rpart_tree_from_frame(frame, n_features: int, X=None, y=None) -> RpartTree:
    """Rebuild an rpart tree from the table :func:`grow_rpart` reads (one row per node).

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns ``node``, ``var`` (``"<leaf>"`` or ``"x<j>"``), ``complexity``, ``ncat`` and
        ``index`` (the split; ncat -1 sends values below ``index`` to node 2n, +1 sends them
        to 2n + 1), and for a classification tree the class counts ``c0``, ``c1``, ...
    n_features : int
    X, y : array-like, optional
        The growing sample of an anova tree (a frame without class counts), whose moments
        the rebuilt :class:`~prunekit.RegressionTree` holds.

    Returns
    -------
    RpartTree
        ``cptable`` is the distinct complexities of the internal nodes, decreasing, and 0.
    """
    node = frame["node"].to_numpy(dtype=np.int64)
    where = {int(v): i for i, v in enumerate(node)}
    n = len(node)
    left, right = np.full(n, -1), np.full(n, -1)
    feature, threshold = np.full(n, -1), np.full(n, np.nan)
    names = frame["var"].astype(str).to_numpy()
    for i in np.flatnonzero(names != "<leaf>"):
        low, high = where[2 * int(node[i])], where[2 * int(node[i]) + 1]
        if frame["ncat"].iloc[i] > 0:
            low, high = high, low
        left[i], right[i] = low, high
        feature[i] = int(names[i][1:])
        # rpart sends x < index one way; prunekit sends x <= threshold left
        threshold[i] = np.nextafter(float(frame["index"].iloc[i]), -np.inf)
    columns = sorted((c for c in frame.columns if c[0] == "c" and c[1:].isdigit()),
                     key=lambda c: int(c[1:]))
    if columns:
        counts = frame[columns].to_numpy(dtype=np.int64)
        tree = Tree.from_arrays(left, right, counts, feature, threshold, n_features=n_features)
    elif X is None or y is None:
        raise ValueError("an anova tree's moments come from its growing sample: give X and y.")
    else:
        tree = RegressionTree.from_arrays(left, right, feature=feature, threshold=threshold,
                                          X=X, y=y, n_features=n_features)
    complexity = frame["complexity"].to_numpy(dtype=float)
    cps = np.unique(np.append(complexity[~tree.is_leaf], 0.0))[::-1]
    return RpartTree(tree, node, complexity, cps)


def rpart_available(rscript: str = "Rscript") -> bool:
    """Whether ``rscript`` runs and has the rpart package."""
    import shutil
    import subprocess

    if shutil.which(rscript) is None:
        return False
    done = subprocess.run([rscript, "-e", "library(rpart)"], capture_output=True)
    return done.returncode == 0


def grow_rpart(X, y, *, minsplit: int = RPART_MINSPLIT, minbucket: int = RPART_MINBUCKET,
               rscript: str = "Rscript", method: str = "class") -> RpartTree:
    """Grow a tree with R's rpart (to cp = 0) and rebuild it in prunekit.

    Runs :data:`RPART_SCRIPT` (rpart with ``cp = 0, xval = 0, maxcompete = 0,
    maxsurrogate = 0`` and the given ``minsplit``, ``minbucket``) in a temporary folder.
    A classification tree is rebuilt from rpart's class counts and must route ``X`` to
    them exactly; an anova tree (``method = "anova"``, rpart's regression trees under
    squared error) is rebuilt with :meth:`prunekit.RegressionTree.from_arrays` from ``X``
    and ``y``, and must route ``X`` to rpart's node sizes ``n`` exactly, with
    :attr:`~prunekit.RegressionTree.value` equal to rpart's ``yval`` (node means) and
    :meth:`~prunekit.RegressionTree.leaf_errors` to its ``dev`` (sums of squared deviations)
    to a relative 1e-9.

    Parameters
    ----------
    X : array-like of shape (m, d), numeric
    y : array-like
        Labels 0..K-1, or real targets for ``method="anova"``.
    minsplit, minbucket : int
        rpart.control's smallest node to split and smallest leaf (defaults 20 and 7).
    rscript : str, default "Rscript"
    method : {"class", "anova"}, default "class"
        rpart's method: a classification tree, or a regression tree under squared error
        (a :class:`~prunekit.RegressionTree`).

    Returns
    -------
    RpartTree
        With rpart's own cp table.

    Raises
    ------
    RuntimeError
        If rpart fails, or the rebuilt tree does not reproduce rpart's frame as above.
    """
    import subprocess
    import tempfile

    import pandas as pd

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or len(X) != len(y):
        raise ValueError("X must be 2-d with one row per label in y.")
    minsplit = check_count(minsplit, "minsplit", minimum=2)
    minbucket = check_count(minbucket, "minbucket", minimum=1)
    if method not in ("class", "anova"):
        raise ValueError(f"method must be 'class' or 'anova', got {method!r}.")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        data = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
        data["y"] = y
        data.to_csv(folder / "data.csv", index=False, float_format="%.17g")
        done = subprocess.run([rscript, str(RPART_SCRIPT), str(folder / "data.csv"),
                               str(folder), str(minsplit), str(minbucket), method],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"rpart failed: {done.stderr.strip()}")
        frame = pd.read_csv(folder / "frame.csv")
        splits = pd.read_csv(folder / "splits.csv")
        cptable = pd.read_csv(folder / "cptable.csv")["CP"].to_numpy()
    inner = frame["var"] != "<leaf>"
    frame["ncat"], frame["index"] = np.nan, np.nan
    frame.loc[inner, "ncat"] = splits["ncat"].to_numpy()
    frame.loc[inner, "index"] = splits["index"].to_numpy()
    if method == "anova":
        fit = rpart_tree_from_frame(frame.drop(columns=["yval"]), X.shape[1], X, y)
        _check_anova(fit.tree, frame)
        return RpartTree(fit.tree, fit.node, fit.complexity, cptable)
    fit = rpart_tree_from_frame(frame, X.shape[1])
    codes = np.searchsorted(np.unique(y), y)
    if not np.array_equal(fit.tree.node_counts(X, codes), fit.tree.counts):
        raise RuntimeError("the rebuilt tree does not route the data as rpart did.")
    return RpartTree(fit.tree, fit.node, fit.complexity, cptable)


def _check_anova(tree: RegressionTree, frame) -> None:
    """Raise RuntimeError unless ``tree`` routes its growing sample to rpart's node sizes
    (``frame$n``) and its means and sums of squared deviations are rpart's ``yval`` and
    ``dev`` (relative 1e-9; absolute 1e-9 of the targets' scale, resp. of the root's)."""
    if not np.array_equal(tree.moments[:, 0], frame["n"].to_numpy(dtype=float)):
        raise RuntimeError("the rebuilt tree does not route the data as rpart did: node "
                           "sizes differ from rpart's frame$n.")
    yval, dev = frame["yval"].to_numpy(dtype=float), frame["dev"].to_numpy(dtype=float)
    scale = max(np.abs(yval).max(), np.sqrt(dev[0] / tree.n_samples))
    if not np.allclose(tree.value, yval, rtol=1e-9, atol=1e-9 * scale):
        raise RuntimeError("the rebuilt tree's node means differ from rpart's frame$yval.")
    if not np.allclose(tree.leaf_errors(), dev, rtol=1e-9, atol=1e-9 * dev[0]):
        raise RuntimeError("the rebuilt tree's sums of squared deviations differ from "
                           "rpart's frame$dev.")


def rpart_frame(fit: RpartTree):
    """The table :func:`rpart_tree_from_frame` reads back, for storing an rpart tree."""
    import pandas as pd

    tree = fit.tree
    inner = ~tree.is_leaf
    ncat = np.full(tree.n_nodes, np.nan)
    index = np.full(tree.n_nodes, np.nan)
    # the child numbered 2n is prunekit's left child exactly when ncat = -1
    even_left = fit.node[np.maximum(tree.left, 0)] == 2 * fit.node
    ncat[inner] = np.where(even_left[inner], -1.0, 1.0)
    index[inner] = np.nextafter(tree.threshold[inner], np.inf)
    frame = pd.DataFrame(dict(node=fit.node, var=np.where(inner, [f"x{f}" for f in
                                                                tree.feature], "<leaf>"),
                              complexity=fit.complexity, ncat=ncat, index=index))
    for k in range(tree.n_classes):
        frame[f"c{k}"] = tree.counts[:, k]
    return frame


def compare_rpart(fit: RpartTree) -> dict:
    """rpart's cp table and ``prune`` against the exact weakest-link sequence on one tree.

    Returns
    -------
    dict
        ``nodes`` and ``splits`` of the tree; ``splits_differ``, the splits whose rpart
        complexity differs from the exact weakest-link cp (relative tolerance 1e-9);
        ``rpart_cps`` and ``exact_cps``, the lengths of the two cp tables; ``cps_differ``,
        the entries of rpart's ``CP`` column within a relative 1e-6 of no exact cp; and,
        over the cps of rpart's own table, ``prune_differs``, how many ``prune(fit, cp)``
        calls return another subtree than the smallest minimiser of R_alpha
        (alpha n = cp R(root)), and ``prune_not_minimal``, how many of those return a
        subtree of strictly larger R_alpha (relative margin 1e-9).

    Notes
    -----
    Works alike for classification and anova trees: R_alpha(P) = R(P) + alpha |leaves(P)|
    with R the misclassified examples or the sum of squared errors (Breiman et al. 1984,
    ch. 3 and ch. 8), and cp = alpha n / R(root).
    """
    tree = fit.tree
    inner = ~tree.is_leaf
    exact = fit.exact_complexity()
    tolerance = 1e-9 * np.maximum(1.0, np.abs(exact))
    differ = inner & ~(np.abs(exact - fit.complexity) <= tolerance)
    table = fit.exact_cptable()
    near = np.abs(fit.cptable[:, None] - table[None, :]) <= 1e-6 * np.abs(table[None, :])
    different = worse = 0
    for cp in fit.cptable:
        rpart_pruning, best = fit.prune(cp), fit.smallest_minimiser(cp)
        if rpart_pruning != best:
            different += 1
            excess = fit.cost(rpart_pruning, cp) - fit.cost(best, cp)
            worse += bool(excess > 1e-9 * fit.cost(best, cp))
    return dict(nodes=tree.n_nodes, splits=int(inner.sum()), splits_differ=int(differ.sum()),
                rpart_cps=len(fit.cptable), exact_cps=len(table),
                cps_differ=int((~near.any(axis=1)).sum()), prune_differs=different,
                prune_not_minimal=worse)


#: The sample of the small tree on which rpart's prune misses the minimiser (Chapter 9).
RPART_EXAMPLE = dict(n_samples=200, n_features=16, noise=0.2, random_state=1)


def rpart_example(rscript: str = "Rscript") -> RpartTree:
    """rpart's tree (default control, grown to cp = 0) on :data:`RPART_EXAMPLE`'s sample of
    :func:`prunekit.datasets.make_boolean_dnf`: 11 nodes, and one cp of rpart's own table at
    which ``prune`` returns a subtree that does not minimise R_alpha."""
    X, y = make_boolean_dnf(**RPART_EXAMPLE)
    return grow_rpart(X, y, rscript=rscript)
