"""The chapter 3 figure: REP's test error and size against the pruning share.

The figure is drawn at most 7 inches wide, with no text smaller than 9 points, one row of two
panels per data set, and bad arguments get an error that names them.
"""

from __future__ import annotations

import numpy as np
import pytest

from figure_checks import smallest_font

from pdtbook.figures import plot_pruning_share

FRACTIONS = [0.1, 0.3, 0.5]


def _runs(n_seeds=3, offset=0.0):
    rng = np.random.default_rng(0)
    return {
        "rep_error": offset + 0.1 + 0.01 * rng.random((n_seeds, len(FRACTIONS))),
        "rep_nodes": 10 + rng.integers(0, 5, (n_seeds, len(FRACTIONS))),
        "ccp_error": np.full(n_seeds, offset + 0.08),
        "ccp_nodes": np.full(n_seeds, 7.0),
        "unpruned_error": np.full(n_seeds, offset + 0.2),
    }


def test_one_row_of_two_panels_per_data_set():
    results = {"first": _runs(), "second": _runs(offset=0.1)}
    fig = plot_pruning_share(results, FRACTIONS)
    assert len(fig.axes) == 4
    width, height = fig.get_size_inches()
    assert width == 7.0 and height > 4
    top_left, top_right, bottom_left, bottom_right = fig.axes
    assert top_left.get_position().y0 > bottom_left.get_position().y1      # rows stacked
    assert top_left.get_position().x1 < top_right.get_position().x0        # two columns
    assert top_left._left_title.get_text() == "first"
    assert bottom_left._left_title.get_text() == "second"
    assert top_left.get_ylabel() == "test error" and top_right.get_ylabel() == "nodes"
    assert bottom_left.get_xlabel() == "pruning share (%)"
    # the REP curve is the mean over the seeds, at the shares in percent
    x, y = bottom_left.containers[0].lines[0].get_data()
    assert np.allclose(x, [10, 30, 50])
    assert np.allclose(y, results["second"]["rep_error"].mean(axis=0))
    # the dashed and dotted reference lines: cost-complexity and the unpruned tree
    levels = sorted(line.get_ydata()[0] for line in bottom_left.lines
                    if line.get_linestyle() in ("--", ":"))
    assert np.allclose(levels, [0.18, 0.3])
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[0].startswith("REP") and len(labels) == 3
    assert smallest_font(fig) >= 9


def test_one_seed_draws_without_error_bars_failing():
    fig = plot_pruning_share({"only": _runs(n_seeds=1)}, FRACTIONS, width=6, fontsize=10,
                             row_height=2.5)
    assert len(fig.axes) == 2
    assert tuple(fig.get_size_inches()) == (6.0, 0.8 + 2.5)
    assert smallest_font(fig) >= 10


@pytest.mark.parametrize("change, error, message", [
    (dict(width=8), ValueError, r"width must be a number of inches in \(0, 7\]"),
    (dict(fontsize=8), ValueError, "fontsize must be a number of points of at least 9"),
    (dict(row_height=0), ValueError, "row_height must be > 0"),
    (dict(fractions=[0.3, 0.1, 0.5]), ValueError, "fractions must be increasing"),
    (dict(fractions=[0.1, 0.3, 1.5]), ValueError, r"fractions must be increasing numbers in"),
    (dict(fractions=[0.1, 0.3]), ValueError, r"results\['a'\]\['rep_error'\] must have shape"),
    (dict(results={}), TypeError, "results must be a non-empty dict"),
    (dict(results=[_runs()]), TypeError, "results must be a non-empty dict"),
    (dict(results={1: _runs()}), TypeError, "results must be keyed by data set names"),
    (dict(results={"a": [1, 2]}), TypeError, r"results\['a'\] must be a dict"),
    (dict(results={"a": {"rep_error": np.ones((3, 3))}}), ValueError,
     r"results\['a'\] has no 'rep_nodes'"),
    (dict(results={"a": {**_runs(), "ccp_error": np.ones(2)}}), ValueError,
     r"results\['a'\]\['ccp_error'\] must have shape \(3,\)"),
])
def test_bad_arguments_are_refused_by_name(change, error, message):
    arguments = dict(results={"a": _runs()}, fractions=FRACTIONS)
    arguments.update(change)
    with pytest.raises(error, match=message):
        plot_pruning_share(**arguments)


def test_draws_the_results_of_the_experiment():
    from sklearn.datasets import load_breast_cancer

    from pdtbook.experiments import pruning_share_experiment

    X, y = load_breast_cancer(return_X_y=True)
    runs = pruning_share_experiment(X, y, [0.2, 0.4], seeds=[0, 1], cv=3)
    fig = plot_pruning_share({"breast cancer": runs}, [0.2, 0.4])
    assert len(fig.axes) == 2
    assert fig.get_size_inches()[0] <= 7
