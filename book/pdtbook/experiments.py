"""The book's experiments with reduced-error pruning on data (Chapters 3 and 7).

Chapter 3 asks how much of the training data should go to pruning:
:func:`pruning_share_experiment` runs REP at several pruning shares and compares it with
cost-complexity pruning on the same data, over many seeds, in the chapter itself.

Chapter 7 reruns the experiments of Sec. 6 of Kääriäinen, Malinen & Elomaa (2004), too long
for a notebook, from the command line. Protocol (Sec. 6.1 of the paper): for each data set and
each of 10 random splits, 10 % of the examples are set aside for testing and the rest is
divided 2:1 into a growing and a pruning set; an unpruned binary C4.5-type tree is grown on
the growing set; it is pruned by REP and by k-REP with k = floor(c x errors of the unpruned
tree on the growing set), c = 1.1 (:func:`prunekit.k_reduced_error_pruning.growing_error_budget`); each pruning gets the
Rademacher bound of Lemma 3, eq. (1), with one draw of the signs on the pruning set, and the
REP pruning the Occam's-razor comparison of Sec. 6.1 (d/4 bits for a d-node tree) and the
Occam bound with log2 of the exact number of prunings, which holds for every pruning;
delta = 0.01 throughout. LED 24-10 is
300,000 examples of :func:`prunekit.datasets.make_led24` with 10 % attribute noise.

The paper grows its trees with Weka's C4.5 (J48) with binary splits; here the grower is
scikit-learn's ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
random_state=split)`` on one-hot encoded nominal attributes, which also makes binary
"value versus the rest" splits. Split ``i`` draws its permutation, its tree's random state
and its Rademacher signs from the seed ``i``, so every row can be regenerated on its own.

The results of Chapter 7 were produced, from the repository's root, by::

    nice python -m pdtbook.experiments --all \\
        --data ../shared/data/uci --cache /tmp/prunekit-cache --n-jobs 2 \\
        --out prunekit/data/kaariainen2004_reproduction.csv

and the effect of c by::

    nice python -m pdtbook.experiments adult letter \\
        --data ../shared/data/uci --cache /tmp/prunekit-cache --n-jobs 2 \\
        --c 1.0 1.1 1.2 1.3 1.4 1.5 1.75 2.0 \\
        --out prunekit/data/kaariainen2004_c_effect.csv

Finished splits are stored as one small JSON file per (data set, split) in the cache
directory, with one row per value of c, so an interrupted run resumes where it stopped and a
value of c added later is run alone. Splits run in parallel through :mod:`joblib`;
``--dask-scheduler ADDRESS`` runs them on a Dask cluster (:mod:`pdtbook.runner`, which
the study of Chapter 9 shares).
"""

from __future__ import annotations

import math
import numbers
import sys
import time
from functools import partial

import numpy as np
from joblib import delayed
from sklearn.tree import DecisionTreeClassifier

from prunekit import bounds
from prunekit.validation import as_array, check_count, check_labels, check_probability
from prunekit.cost_complexity_pruning import cross_validate_alpha
from prunekit.k_reduced_error_pruning import (growing_error_budget,
                                              growing_errors_of_tree,
                                              k_reduced_error)
from prunekit.rademacher import draw_signs, rademacher_penalty
from prunekit.reduced_error_pruning import LABELLING_SAMPLES, reduced_error
from prunekit.tree import Pruning, Tree, count_prunings

from pdtbook.runner import (
    LED_NAME, N_SPLITS, Cache, check_keys, check_splits, command_docstring, command_line,
    led24_dataset, load_dataset, parse_arguments, run_command, run_splits, split_indices,
    uci_dataset, write_results,
)

__all__ = ["SHARE_EXPERIMENT_KEYS", "pruning_share_experiment", "DELTA", "C",
           "REPRODUCTION_TEST_FRACTION", "REPRODUCTION_LED_SAMPLES", "REPRODUCTION_DATASETS",
           "REPRODUCTION_COLUMNS", "grow_unpruned", "run_split",
           "run_dataset", "run", "main"]


# ---------------------------------------------------------------------- Chapter 3
# How much of the training data should go to pruning?

#: The keys of the dictionary :func:`pruning_share_experiment` returns.
SHARE_EXPERIMENT_KEYS = (
    "rep_error", "rep_nodes", "growing_labels_error", "growing_labels_nodes",
    "pruning_labels_error", "pruning_labels_nodes", "ccp_error", "ccp_nodes",
    "ccp_1se_error", "ccp_1se_nodes", "unpruned_error", "unpruned_nodes",
)


def _check_fractions(fractions, name: str) -> np.ndarray:
    if isinstance(fractions, (str, bytes)) or not hasattr(fractions, "__iter__"):
        raise TypeError(f"{name} must be a sequence of numbers in (0, 1), got "
                        f"{type(fractions).__name__} {fractions!r}.")
    values = [check_probability(f, f"{name}[{k}]") for k, f in enumerate(fractions)]
    if not values:
        raise ValueError(f"{name} must hold at least one number in (0, 1).")
    return np.array(values)


def _check_seeds(seeds) -> list[int]:
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise TypeError(f"seeds must be a sequence of integer seeds, got "
                        f"{type(seeds).__name__} {seeds!r}.")
    seeds = [check_count(s, f"seeds[{k}]", maximum=2**32 - 1) for k, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("seeds must hold at least one integer seed.")
    return seeds


def pruning_share_experiment(X, y, fractions=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6), seeds=range(20),
                             *, test_size: float = 0.3, share: float = 1 / 3,
                             cv: int = 10) -> dict[str, np.ndarray]:
    """REP against the share of the data used for pruning, and against cost-complexity pruning.

    The experiment of Chapter 3. For every seed, a stratified ``test_size`` of ``(X, y)`` is
    held out for testing (``train_test_split(..., random_state=seed)``); the rest is the
    training data. For every ``fraction``, a stratified ``fraction`` of the training data
    becomes the pruning sample, a ``DecisionTreeClassifier(random_state=seed)`` is grown to
    purity on the remainder and pruned by :func:`prunekit.reduced_error` (REP as empirical risk
    minimisation over the prunings, Kääriäinen, Malinen & Elomaa 2004, Sec. 3). With the
    pruning share ``share`` (one third, the split of Kääriäinen et al. and of Esposito,
    Malerba & Semeraro 1997) REP is run with both leaf labellings. On the same training data,
    :func:`prunekit.cross_validate_alpha` (``cv`` folds) chooses cost-complexity pruning's
    alpha by the 0-SE and the 1-SE rule (Breiman et al. 1984, Sec. 3.4), and the unpruned
    tree grown on all the training data is kept for comparison.

    Parameters
    ----------
    X : array-like of shape (m, d)
    y : array-like of shape (m,)
        Class labels; every class needs enough examples for the stratified splits.
    fractions : sequence of float in (0, 1), default (0.1, 0.2, ..., 0.6)
        Shares of the training data used for pruning.
    seeds : sequence of int, default range(20)
        One run (split into test and training data, growing and pruning samples, folds) per
        seed.
    test_size : float in (0, 1), default 0.3
        Share of ``(X, y)`` held out for testing.
    share : float in (0, 1), default 1/3
        Pruning share of the comparison of leaf labellings and with cost-complexity pruning.
    cv : int, default 10
        Number of cross-validation folds for alpha.

    Returns
    -------
    dict of str to ndarray
        Test error rates and node counts, one row per seed:

        * ``"rep_error"``, ``"rep_nodes"``, shape (n_seeds, n_fractions): REP at every
          fraction, with the growing sample's leaf labels;
        * ``"growing_labels_error"``, ``"growing_labels_nodes"`` and ``"pruning_labels_error"``,
          ``"pruning_labels_nodes"``, shape (n_seeds,): REP at ``share`` with leaf labels from
          the growing sample and from the pruning sample;
        * ``"ccp_error"``, ``"ccp_nodes"`` (0-SE rule), ``"ccp_1se_error"``,
          ``"ccp_1se_nodes"`` (1-SE rule), shape (n_seeds,): cost-complexity pruning;
        * ``"unpruned_error"``, ``"unpruned_nodes"``, shape (n_seeds,): the unpruned tree grown
          on all the training data.
    """
    from sklearn.model_selection import train_test_split

    X = as_array(X, "X", ndim=2, dtype="numeric", what="(n_samples, n_features)")
    y = check_labels(y, X.shape[0])
    fractions = _check_fractions(fractions, "fractions")
    seeds = _check_seeds(seeds)
    test_size = check_probability(test_size, "test_size")
    share = check_probability(share, "share")
    cv = check_count(cv, "cv", minimum=2)
    runs = {key: [] for key in SHARE_EXPERIMENT_KEYS}

    def grow_and_prune(X_train, y_train, fraction, seed):
        X_grow, X_prune, y_grow, y_prune = train_test_split(
            X_train, y_train, test_size=fraction, stratify=y_train, random_state=seed)
        clf = DecisionTreeClassifier(random_state=seed).fit(X_grow, y_grow)
        return Tree.from_sklearn(clf, X_grow, y_grow), X_prune, y_prune

    def record(name, model, X_test, y_test):
        runs[f"{name}_error"].append(model.error(X_test, y_test))
        runs[f"{name}_nodes"].append(model.n_nodes)

    for seed in seeds:
        X_train, X_test, y_train, y_test = train_test_split(
            X, y, test_size=test_size, stratify=y, random_state=seed)
        errors, nodes = [], []
        for fraction in fractions:
            pruned = reduced_error(*grow_and_prune(X_train, y_train, fraction, seed))
            errors.append(pruned.error(X_test, y_test))
            nodes.append(pruned.n_nodes)
        runs["rep_error"].append(errors)
        runs["rep_nodes"].append(nodes)
        grown, X_prune, y_prune = grow_and_prune(X_train, y_train, share, seed)
        for labels in LABELLING_SAMPLES:
            record(f"{labels}_labels", reduced_error(grown, X_prune, y_prune, labels=labels),
                   X_test, y_test)
        selection = cross_validate_alpha(X_train, y_train, cv=cv, random_state=seed)
        record("ccp", selection.path.pruning(selection.best), X_test, y_test)
        record("ccp_1se", selection.path.pruning(selection.one_se), X_test, y_test)
        record("unpruned", selection.path.tree, X_test, y_test)
    return {key: np.array(value, dtype=float) for key, value in runs.items()}


# ---------------------------------------------------------------------- Chapter 7
DELTA = 0.01            # Sec. 6.2: "In all bounds, we set delta = 0.01"
C = 1.1                 # Sec. 6.1: k = 1.1 x the growing errors of the unpruned tree
#: Sec. 6.1: "10 percent of the data for testing", the rest 2:1 into growing and pruning.
REPRODUCTION_TEST_FRACTION = 0.1
#: Sec. 6.1: "300,000 instances with 10 percent attribute noise".
REPRODUCTION_LED_SAMPLES = 300_000
#: Every data set of the paper's Table 1, in its order: the UCI sets and LED 24-10.
REPRODUCTION_DATASETS = {
    name: (led24_dataset(REPRODUCTION_LED_SAMPLES, "LED 24-10") if name == LED_NAME
           else uci_dataset(name))
    for name in ("adult", "anneal", "census", "connect-4", "cover", "isolet", "krkopt",
                 LED_NAME, "letter", "mushroom", "musk", "nursery", "optdigits",
                 "page-blocks", "pendigits")}
#: The columns of the results file, one row per (data set, c, split).
REPRODUCTION_COLUMNS = (
    "dataset", "paper_name", "split", "c", "delta", "n_samples", "n_classes", "n_grow",
    "n_prune", "n_test", "unpruned_nodes", "unpruned_grow_errors", "unpruned_test_error",
    "k", "rep_nodes", "rep_prune_error", "rep_test_error", "rep_penalty", "rep_bound",
    "krep_nodes", "krep_prune_error", "krep_test_error", "krep_penalty", "krep_bound",
    "occam_bound", "log2_prunings", "occam_count_bound", "eta", "seconds")


# ---------------------------------------------------------------------- inputs
def _check_budget_factor(c) -> float:
    """k-REP's budget factor c of k = c x (growing errors of the unpruned tree): a real >= 1."""
    if isinstance(c, bool) or not isinstance(c, numbers.Real) or not np.isfinite(c):
        raise TypeError(f"c must be a real number, got {c!r}.")
    if c < 1:
        raise ValueError(
            f"c must be at least 1, got {c}: k = c x (growing errors of the unpruned tree), and "
            "no pruning makes fewer growing errors than the unpruned tree."
        )
    return float(c)


# ---------------------------------------------------------------------- one split
def grow_unpruned(X_grow, y_grow, n_classes: int, split: int) -> Tree:
    """The unpruned tree: a binary C4.5-type tree, as a :class:`Tree` over all classes.

    scikit-learn's ``DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2)`` stands
    in for Weka's J48 without pruning. The tree's counts get one column per class of the
    whole data set (labels 0..n_classes-1), so that pruning and test examples of a class the
    growing set lacks are counted, and misclassified, like any other.
    """
    clf = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=split)
    clf.fit(X_grow, y_grow)
    return Tree.from_sklearn(clf, X_grow, y_grow, classes=np.arange(n_classes))


def run_split(X, y, split: int, *, c: float = C, delta: float = DELTA) -> dict:
    """One split of the protocol: the unpruned tree, REP and k-REP, and their bounds.

    The split is :func:`pdtbook.runner.split_indices` with a test fraction of
    :data:`REPRODUCTION_TEST_FRACTION`: 10 % of the examples for testing, the rest 2:1 into
    the growing and the pruning set.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of int, labels 0..K-1
    split : int
        Split index; seeds the permutation, the tree and the Rademacher signs.
    c : float, default 1.1
        k = floor(c x growing errors of the unpruned tree), c >= 1.
    delta : float, default 0.01

    Returns
    -------
    dict
        The columns of :data:`REPRODUCTION_COLUMNS` except the data set's names: sizes in
        nodes, error rates, the penalties R_m on the m pruning examples for one sign draw (the
        same signs for both classes), the Rademacher bounds eq. (1), the Occam comparison of
        Sec. 6.1 for the REP pruning (``occam_bound``: d/4 bits, d = nodes of the unpruned
        tree, optimistic and not a guarantee), log2 of the number of prunings of the unpruned
        tree (``log2_prunings``) and the Occam bound with that many bits, valid for every
        pruning (``occam_count_bound``, :func:`prunekit.bounds.occam_prunings`), and the wall
        time in seconds.
    """
    start = time.perf_counter()
    c, delta = _check_budget_factor(c), check_probability(delta, "delta")
    n_classes = int(y.max()) + 1
    indices = split_indices(len(y), split, REPRODUCTION_TEST_FRACTION)
    grow, prune, test = indices.grow, indices.prune, indices.test
    tree = grow_unpruned(X[grow], y[grow], n_classes, split)
    X_prune, y_prune = X[prune], y[prune]
    n = len(prune)
    prune_counts = tree.node_counts(X_prune, y_prune)
    test_counts = tree.node_counts(X[test], y[test])
    grow_errors = growing_errors_of_tree(tree)
    k = growing_error_budget(grow_errors, c)
    rep = reduced_error(tree, X_prune, y_prune)
    krep = k_reduced_error(tree, X_prune, y_prune, k)
    signs = draw_signs(n, split)
    row = dict(split=split, c=c, delta=delta, n_samples=len(y), n_classes=n_classes,
               n_grow=len(grow), n_prune=n, n_test=len(test), unpruned_nodes=tree.n_nodes,
               unpruned_grow_errors=grow_errors,
               unpruned_test_error=Pruning.full(tree).errors(test_counts) / len(test), k=k)
    for prefix, pruning, budget in (("rep", rep, None), ("krep", krep, k)):
        prune_error = pruning.errors(prune_counts) / n
        penalty = rademacher_penalty(tree, X_prune, y_prune, signs=signs, k=budget)
        row.update({f"{prefix}_nodes": pruning.n_nodes, f"{prefix}_prune_error": prune_error,
                    f"{prefix}_test_error": pruning.errors(test_counts) / len(test),
                    f"{prefix}_penalty": penalty,
                    f"{prefix}_bound": bounds.rademacher(prune_error, penalty, n, delta)})
    row["occam_bound"] = bounds.occam(row["rep_prune_error"], tree.n_nodes, n, delta)
    n_prunings = count_prunings(tree)                    # an exact Python integer
    row["log2_prunings"] = math.log2(n_prunings)
    row["occam_count_bound"] = bounds.occam_prunings(row["rep_prune_error"], n_prunings,
                                                     n, delta)
    row["eta"] = bounds.eta(n, delta)
    row["seconds"] = time.perf_counter() - start
    return row


# ---------------------------------------------------------------------- running
def _split_rows(X, y, split: int, c_values, delta: float) -> list[dict]:
    """The rows of one split, one per value of c (a task of :func:`run_dataset`)."""
    return [run_split(X, y, split, c=c, delta=delta) for c in c_values]


def run_dataset(name: str, X, y, paper_name: str, *, splits=N_SPLITS, c_values=(C,),
                delta: float = DELTA, cache=None, n_jobs=None, progress: bool = True,
                report: dict | None = None) -> list[dict]:
    """Every split of one data set at every value of c: the cached ones read back, the others
    run in parallel (:func:`pdtbook.runner.run_splits`).

    Parameters
    ----------
    name, paper_name : str
    X, y : ndarray
        The data set, labels coded 0..K-1 (:func:`pdtbook.runner.load_dataset`).
    splits : int or iterable of int
        Number of splits (0..splits-1) or the split indices.
    c_values : sequence of float
        The values of c, each at least 1.
    delta : float
    cache : path-like, optional
        Directory of per-split JSON files; a split's rows are written as soon as it finishes,
        and a rerun computes only the (split, c) pairs missing.
    n_jobs : int, optional
        joblib's ``n_jobs``; by default that of the active ``joblib.parallel_config`` (so the
        splits run on a Dask cluster inside ``joblib.parallel_config(backend="dask")``).
    progress : bool
        Show a tqdm progress bar.
    report : dict, optional
        Filled as by :func:`pdtbook.runner.run_splits`.

    Returns
    -------
    list of dict
        One row per (c, split), in the order of ``c_values`` and the splits, with the columns
        :data:`REPRODUCTION_COLUMNS`.
    """
    c_values = [_check_budget_factor(c) for c in np.atleast_1d(c_values).tolist()]
    delta = check_probability(delta, "delta")
    splits = check_splits(splits)
    if cache is not None:
        cache = Cache(cache, dict(runner="reproduction", delta=delta,
                                  test_fraction=REPRODUCTION_TEST_FRACTION), key="c")
    done = run_splits([name], splits, c_values,
                      lambda _, split, missing: delayed(_split_rows)(X, y, split, missing, delta),
                      key="c", cache=cache, n_jobs=n_jobs, progress=progress, report=report)
    rows = [dict(done[name, split][c], dataset=name, paper_name=paper_name)
            for c in c_values for split in splits]
    return [{column: row[column] for column in REPRODUCTION_COLUMNS} for row in rows]


def run(names, data_home=None, *, splits=N_SPLITS, c_values=(C,), delta: float = DELTA,
        cache=None, n_jobs=None, out=None, progress: bool = True,
        report: dict | None = None) -> list[dict]:
    """Run the protocol on several data sets and values of c; optionally write a CSV.

    ``names`` are keys of :data:`REPRODUCTION_DATASETS`; the UCI sets are read from
    ``data_home`` (default ``$PRUNEKIT_DATA``). The other arguments are those of
    :func:`run_dataset`; ``out`` is a CSV file to write
    (:func:`pdtbook.runner.write_results`).

    Returns
    -------
    list of dict
        One row per (data set, c, split), in the order of ``names``, ``c_values`` and the
        splits, with the columns :data:`REPRODUCTION_COLUMNS`.
    """
    names = check_keys(names, list(REPRODUCTION_DATASETS), "data set name")
    c_values = [_check_budget_factor(c) for c in np.atleast_1d(c_values).tolist()]
    delta = check_probability(delta, "delta")
    start = time.perf_counter()
    rows, counts = [], dict(datasets=0, splits=0, computed=0)
    for name in names:
        dataset = REPRODUCTION_DATASETS[name]
        X, y = load_dataset(dataset, data_home)
        one = {}
        rows += run_dataset(name, X, y, dataset.description, splits=splits, c_values=c_values,
                            delta=delta, cache=cache, n_jobs=n_jobs, progress=progress,
                            report=one)
        counts = {key: value + one[key] for key, value in counts.items()}
    if out is not None:
        write_results(rows, REPRODUCTION_COLUMNS, out)
    if report is not None:
        report.update(counts, wall_seconds=time.perf_counter() - start)
    return rows


# ---------------------------------------------------------------------- command line
def _parser():
    parser = command_line(
        "python -m pdtbook.experiments",
        "Rerun Sec. 6 of Kääriäinen, Malinen & Elomaa (2004): REP and k-REP prunings, their "
        "Rademacher bounds and the Occam bounds.", REPRODUCTION_DATASETS,
        "prunekit/data/kaariainen2004_reproduction.csv, or kaariainen2004_c_effect.csv there "
        "when --c is given")
    parser.add_argument("--c", type=float, nargs="+", default=[C], help="k = c x growing errors")
    parser.add_argument("--delta", type=float, default=DELTA, help="confidence parameter")
    return parser


@command_docstring("python -m pdtbook.experiments")
def main(argv=None) -> int:
    parser = _parser()
    args = parse_arguments(parser, argv, lambda args: "kaariainen2004_reproduction"
                           if args.c == [C] else "kaariainen2004_c_effect")
    run_command(parser, args, REPRODUCTION_DATASETS,
                partial(run, data_home=args.data, splits=args.splits, c_values=args.c,
                        delta=args.delta, cache=args.cache, out=args.out))
    return 0


if __name__ == "__main__":
    # Run the importable module's main, so that joblib's workers find the tasks by name.
    from pdtbook import experiments

    sys.exit(experiments.main())
