"""Claims of chapters 4, 5, 7 and 9 about constants, statistics and tools, checked.

* Chapters 4 and 9: Kearns and Mansour's penalty is defined for every c >= 0; the study runs
  it with c = sqrt(2), which covers one deviation of local uniform convergence, while the
  proof of their Theorem 5 needs two, which takes 2 sqrt(2); the paper only asks c > 1.
* Chapter 5: the tail integral behind Nobel's Lemma 3 gives log m where his eq. (12) prints
  log 2.
* Chapter 7: J48 splits nominal attributes one branch per value unless run with -B, which
  tests one value against all the others (the split one-hot encoding gives).
* Chapter 9: the sizes of J48's trees relative to cost-complexity pruning's, the tie
  correction of the Friedman test, the assumptions of the Wilcoxon signed-rank test, why
  Nobel's independent-sample penalty is on the Pareto fronts, and how scikit-learn's grid
  search over ccp_alpha differs from Breiman's cross-validation.
"""

import math
import subprocess

import numpy as np
import pytest
from scipy import special, stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GridSearchCV

import prunekit as pk
from prunekit.bounds import nobel_delta
from prunekit.cost_complexity_pruning import choose_steps
from prunekit.datasets import make_boolean_dnf
from prunekit.kearns_mansour_pruning import penalty

from pdtbook import study, weka
from pdtbook.results import load_results

D = 16


@pytest.fixture(scope="module")
def results():
    return load_results("study")


def _subsets(results):
    return {"all": results,
            "real": results[results["group"] != "synthetic"],
            "synthetic": results[results["group"] == "synthetic"]}


# ------------------------------------------------- chapters 4 and 9: Kearns and Mansour's c
def _width(l_v, s_v, m, delta, d=D):
    """Lemma 1's width at a node reached by all m examples, after the union bound over the
    pairs (l, s) with |PATHS| <= (2d)^l, |TREES| <= (d + 2)^s (chapter 4's accounting)."""
    return np.sqrt((l_v * np.log(2 * d) + s_v * np.log(d + 2) + np.log(2 * m**2 / delta)) / m)


GRID = [(m, delta, l_v) for m in (10, 1000, 10**6, 10**12) for delta in (0.5, 0.05, 1e-4)
        for l_v in range(0, 20)]


def _worst(c, deviations):
    """Largest (sum of the widths) / penalty (3) over the grid, for subtrees T_v* of 3 to 59
    nodes; with two deviations the second is the best leaf's (s = 1) at the same node."""
    worst = 0.0
    s_v = np.arange(3, 60)
    for m, delta, l_v in GRID:
        pen = penalty(m, s_v, l_v, delta, m, c=c, n_features=D, cap=False)
        widths = _width(l_v, s_v, m, delta)
        if deviations == 2:
            widths = widths + _width(l_v, 1, m, delta)
        worst = max(worst, float(np.max(widths / pen)))
    return worst


def test_the_penalty_is_defined_for_every_nonnegative_c():
    m_v = np.array([0, 1, 5, 100, 10_000])
    assert np.all(penalty(m_v, 7, 3, 0.05, 10_000, c=0.0, n_features=D) == 0)
    small = penalty(m_v[1:], 7, 3, 0.05, 10_000, c=0.56, n_features=D)
    assert np.all((small > 0) & (small <= 1))
    with pytest.raises(ValueError):
        penalty(100, 7, 3, 0.05, 10_000, c=-0.1, n_features=D)
    # c = 0 is reduced-error pruning on the training sample
    X, y = make_boolean_dnf(500, n_features=D, terms=((0, 1), (2, 3, 4)), noise=0.1,
                            random_state=0)
    tree = pk.id3(X, y)
    assert pk.kearns_mansour(tree, delta=0.05, c=0.0) == pk.reduced_error(tree, X, y)


def test_sqrt_two_covers_one_deviation_and_two_sqrt_two_covers_two():
    assert _worst(math.sqrt(2), 1) <= 1 + 1e-12
    assert _worst(math.sqrt(2), 2) > 1.5               # the proof's two deviations: not covered
    assert _worst(2 * math.sqrt(2), 2) <= 1 + 1e-12


def test_the_study_runs_kearns_mansour_with_sqrt_two(results):
    assert study.KM_PAPER_C == math.sqrt(2)
    assert study.METHOD_LABELS["km-paper"] == "KM, c = √2"
    stored = results.loc[results["method"] == "km-paper", "parameter"].unique()
    assert np.allclose(stored, math.sqrt(2))
    assert math.sqrt(2) < 2 * math.sqrt(2)   # below the constant of the proof, above the paper's 1


# ------------------------------------------------------------- chapter 5: Nobel's eq. (12)
@pytest.mark.parametrize("j, m, d", [(1, 4, 1), (1, 1000, 2), (3, 1000, 12), (17, 10**4, 12),
                                     (63, 10**6, 50), (200, 10**8, 3)])
def test_lemma_three_gives_log_m_where_eq_12_prints_log_2(j, m, d):
    delta = nobel_delta(j, m, d)
    # the exact integral of 2^j m^(jd) exp(-m t^2 / 32) from Delta(j, m) to infinity
    x = delta * math.sqrt(m / 32)
    exact = math.sqrt(8 * math.pi / m) * special.erfcx(x) / j**2
    if j * d * math.log(m) + j * math.log(2) < 700:        # no overflow: the plain form
        plain = 2**j * m**(j * d) * math.sqrt(8 * math.pi / m) * special.erfc(x)
        assert exact == pytest.approx(plain, rel=1e-9)
    tail_bound = 16 / (j**2 * m * delta)                      # appendix: e^{-a u^2} / (2 a u)
    with_log_m = 2 * math.sqrt(2) / (j**2.5 * math.sqrt(d * m * math.log(m)))
    with_log_2 = 2 * math.sqrt(2) / (j**2 * math.sqrt(d * j * m * math.log(2)))
    assert exact <= tail_bound <= with_log_m * (1 + 1e-12)
    assert with_log_2 / with_log_m == pytest.approx(math.sqrt(math.log(m) / math.log(2)))


# ------------------------------------------------------------------ chapter 7: J48 and -B
needs_weka = pytest.mark.skipif(not weka.weka_available(),
                                reason="Java or Weka's weka.jar is not installed")
ARFF = """@relation nominal
@attribute colour {red,green,blue}
@attribute x numeric
@attribute class {p,n}
@data
"""


def _j48(tmp_path, *options):
    rng = np.random.default_rng(0)
    rows = []
    for i in range(60):
        colour, x = ("red", "green", "blue")[i % 3], rng.random()
        label = {"red": "p", "green": "n", "blue": "p" if x > 0.5 else "n"}[colour]
        rows.append(f"{colour},{x:.3f},{label}")
    path = tmp_path / "nominal.arff"
    path.write_text(ARFF + "\n".join(rows) + "\n")
    java, jar = weka._require_weka()
    done = subprocess.run([java, "-cp", str(jar), "weka.classifiers.trees.J48", *options,
                           "-t", str(path), "-no-cv"], capture_output=True, text=True,
                          check=True)
    tree = done.stdout.split("------------------\n", 1)[1].split("\n\nNumber of Leaves")[0]
    return [line for line in tree.strip().splitlines() if not line.startswith("|")]


@needs_weka
def test_j48_splits_a_nominal_attribute_one_branch_per_value_unless_b(tmp_path):
    top = _j48(tmp_path)
    assert [line.split(":")[0] for line in top] == [
        "colour = red", "colour = green", "colour = blue"]
    top = _j48(tmp_path, "-B")
    assert [line.split(":")[0] for line in top] == ["colour = red", "colour != red"]


def test_prunekit_runs_j48_without_b():
    for options in (weka.j48_options(), weka.j48_options(subtree_raising=False),
                    weka.j48_options(pruned=False)):
        assert "-B" not in options


# --------------------------------------------------- chapter 9: J48's trees are larger
def _size_ratio(rows, method):
    table = study.mean_table(rows, "n_leaves")
    return float(np.exp(np.log(table[method] / table["unpruned"]).mean()))


def test_j48_trees_relative_to_cost_complexity(results):
    subsets = _subsets(results)
    real, everything = subsets["real"], subsets["all"]
    assert real["dataset"].nunique() == 16 and everything["dataset"].nunique() == 28
    ebp, ccp = _size_ratio(real, "ebp-raising"), _size_ratio(real, "ccp-cv")
    assert round(ebp, 3) == 0.614 and round(ccp, 3) == 0.398
    assert 1.5 <= ebp / ccp < 1.6                   # "about one and a half times as large"
    ebp, ccp = _size_ratio(everything, "ebp-raising"), _size_ratio(everything, "ccp-cv")
    assert round(ebp, 3) == 0.349 and round(ccp, 3) == 0.192
    assert 1.8 <= ebp / ccp < 2                     # "nearly two", over all 28 data sets


# ------------------------------------------------ chapter 9: the Friedman test's ties
@pytest.mark.parametrize("value", ["test_error", "n_leaves"])
@pytest.mark.parametrize("subset", ["all", "real", "synthetic"])
def test_scipy_divides_the_tie_free_friedman_statistic_by_c(results, value, subset):
    table = study.mean_table(_subsets(results)[subset], value)
    n, k = table.shape
    rank = table.rank(axis=1)
    free = 12 * n / (k * (k + 1)) * ((rank.mean() ** 2).sum() - k * (k + 1) ** 2 / 4)
    groups = np.concatenate([row.value_counts().to_numpy() for _, row in table.iterrows()])
    tie_c = 1 - np.sum(groups**3 - groups) / (n * k * (k**2 - 1))
    assert tie_c < 1                                        # there are ties
    scipy_chi2 = stats.friedmanchisquare(*(table[m] for m in table.columns)).statistic
    assert scipy_chi2 == pytest.approx(free / tie_c)
    assert scipy_chi2 > free
    assert study.friedman_test(_subsets(results)[subset], value).statistic == pytest.approx(
        scipy_chi2)


# ------------------------------------------------ chapter 9: what Wilcoxon's test assumes
def _rejection_rate(draw, rng, n=28, repeats=2000):
    return np.mean([stats.wilcoxon(draw(rng, n), zero_method="zsplit").pvalue < 0.05
                    for _ in range(repeats)])


def test_wilcoxon_needs_symmetry_not_normality():
    rng = np.random.default_rng(2006)
    # symmetric about 0, far from normal: the level is kept
    laplace = _rejection_rate(lambda r, n: r.laplace(size=n), rng)
    # median 0 but skewed: rejected far more often than 5 %
    skewed = _rejection_rate(lambda r, n: r.exponential(size=n) - math.log(2), rng)
    assert 0.03 <= laplace <= 0.07
    assert skewed > 0.09


def test_wilcoxon_compares_the_sizes_of_differences_across_data_sets(results):
    # the real data sets, cost-complexity with CV against EBP with raising (chapter 9)
    table = study.mean_table(_subsets(results)["real"], "test_error", ["ccp-cv", "ebp-raising"])
    difference = (table["ccp-cv"] - table["ebp-raising"]).to_numpy()
    before = stats.wilcoxon(difference, zero_method="zsplit").pvalue
    # make the largest loss of CCP ten times as large: no sign changes, but its rank does
    rescaled = difference.copy()
    rescaled[np.argmax(difference)] *= 10
    signs = np.sum(difference > 0), np.sum(difference < 0)
    assert (np.sum(rescaled > 0), np.sum(rescaled < 0)) == signs
    after = stats.wilcoxon(rescaled, zero_method="zsplit").pvalue
    assert not math.isclose(before, after)
    # a smaller loss scaled until it becomes the largest |difference| changes p as well
    j = np.argsort(np.abs(difference))[len(difference) // 2]
    moved = difference.copy()
    moved[j] = np.sign(moved[j]) * 2 * np.max(np.abs(difference))
    assert not math.isclose(stats.wilcoxon(moved, zero_method="zsplit").pvalue, before)


# ------------------------------------------ chapter 9: Nobel's independent penalty on the front
def test_nobel_independent_is_on_the_fronts_because_it_is_more_accurate(results):
    tiny = ["km-paper", "nobel-same"]
    better, same, on_front, off_front = [], [], 0, []
    for name in dict.fromkeys(results["dataset"]):
        one = results[results["dataset"] == name]
        size = study.mean_table(one, "n_leaves").iloc[0]
        error = study.mean_table(one).iloc[0]
        s, e = size["nobel-indep"], error["nobel-indep"]
        if s > size[tiny].max() and e < error[tiny].min():
            better.append(name)
        if (s == size[tiny]).all() and (e == error[tiny]).all():
            same.append(name)
        front = size.index[study.pareto_front(size, error)]
        on_front += "nobel-indep" in front
        if "nobel-indep" not in front:
            # only the optimal tree of Chapter 10 is as small and more accurate
            dominating = size.index[(size <= s) & (error <= e) & ((size < s) | (error < e))]
            off_front.append((name, list(dominating)))
    assert len(better) == 27 and same == ["connect-4"] and on_front == 27
    assert off_front == [("mushroom", ["optimal-cv"])]


# --------------------------------------- chapter 9: scikit-learn's ccp_alpha grid search
def test_the_two_cross_validations_differ_in_folds_and_candidates():
    assert study.CV_FOLDS == 10 and study.GRID_FOLDS == 5 and study.CCP_GRID_SIZE == 20


class _Constant(ClassifierMixin, BaseEstimator):
    """Scores the same whatever its parameter: every candidate of a grid ties."""

    def __init__(self, alpha=0.0):
        self.alpha = alpha

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_ties_go_to_the_smallest_alpha_in_grid_search_and_the_largest_in_breiman_cv():
    X = np.arange(40.0).reshape(-1, 1)
    y = np.tile([0, 1], 20)
    grid = [0.0, 0.01, 0.1, 1.0]                       # ascending, as in the study
    search = GridSearchCV(_Constant(), {"alpha": grid}, cv=5).fit(X, y)
    assert search.best_params_["alpha"] == grid[0]    # the largest tree
    errors = np.array([0.3, 0.2, 0.2, 0.2, 0.4])       # cross-validated errors along the path
    best, _ = choose_steps(errors, np.zeros_like(errors))
    assert best == 3                                  # the last tie: the smallest tree


def test_refitting_with_ccp_alpha_equals_pruning_the_grown_tree():
    from sklearn.datasets import load_breast_cancer
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    grower = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=1)
    clf = grower.fit(X, y)
    tree = pk.Tree.from_sklearn(clf, X, y)
    for alpha in clf.cost_complexity_pruning_path(X, y).ccp_alphas:
        refit = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=1,
                                       ccp_alpha=alpha).fit(X, y)
        assert np.array_equal(refit.predict(X),
                              pk.cost_complexity(tree, alpha, "impurity").predict(X))


def test_the_optimal_trees_searches_cost_the_most(results):
    """Chapter 9: the optimal tree's cross-validated searches take the most time of all
    methods (Chapter 10: each search grows by up to 2p + 1 per level of depth)."""
    seconds = (results["grow_seconds"] + results["prune_seconds"]).groupby(
        results["method"]).sum()
    assert seconds.idxmax() == "optimal-cv"
