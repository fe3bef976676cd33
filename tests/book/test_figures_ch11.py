"""The chapter 11 figures of the regression study: its critical-difference
diagrams, size against error with the Pareto front, and its ranks per data
set, with the regression methods' names and within the book's size rule."""

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from pdtbook.figures import (
    regression_study_critical_difference, regression_study_ranks,
    regression_study_size_error,
)
from pdtbook.regression_study import REGRESSION_LABELS, REGRESSION_METHODS

METHODS = ["ccp-cv-0se", "ccp-cv-1se", "gey-nedelec"]


def _toy_results():
    """Three regression methods on four data sets, one split each."""
    errors = {"d1": (0.3, 0.4, 0.2), "d2": (0.5, 0.6, 0.5), "d3": (0.2, 0.3, 0.4),
              "d4": (0.7, 0.9, 0.6)}
    leaves = {"d1": (9, 3, 8), "d2": (12, 4, 12), "d3": (7, 2, 9),
              "d4": (20, 5, 15)}
    return pd.DataFrame([dict(dataset=d, split=0, method=m,
                              relative_error=errors[d][i],
                              n_leaves=leaves[d][i])
                         for d in errors for i, m in enumerate(METHODS)])


def _texts(fig):
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts)


def test_the_figures_name_the_regression_methods():
    toy = _toy_results()
    fig = regression_study_critical_difference(toy, METHODS)
    assert len(fig.axes) == 2 and fig.get_size_inches()[0] <= 7
    assert [ax.get_title() for ax in fig.axes] == ["relative error",
                                                   "number of leaves"]
    for method in METHODS:
        assert REGRESSION_LABELS[method] in _texts(fig)
    fig = regression_study_size_error(toy, METHODS)
    assert fig.axes[0].get_ylabel() == "average rank of relative error"
    assert {t.get_text() for t in fig.axes[0].texts} == {
        REGRESSION_LABELS[m] for m in METHODS}
    fig = regression_study_size_error(toy, METHODS, dataset="d1")
    assert fig.axes[0].get_xscale() == "log"
    assert fig.axes[0].get_ylabel() == "mean relative error"
    fig = regression_study_ranks(toy, methods=METHODS)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == [REGRESSION_LABELS[m] for m in METHODS]
    plt.close("all")


def test_the_shipped_table_is_drawn_by_default():
    fig = regression_study_critical_difference(values="relative_error")
    assert len(fig.axes) == 1
    for method in REGRESSION_METHODS:
        assert REGRESSION_LABELS[method] in _texts(fig)
    plt.close("all")


def test_the_size_rule_is_kept():
    toy = _toy_results()
    with pytest.raises(ValueError, match="width"):
        regression_study_critical_difference(toy, METHODS, width=8)
    with pytest.raises(ValueError, match="width"):
        regression_study_ranks(toy, methods=METHODS, width=7.5)
    with pytest.raises(ValueError, match="values"):
        regression_study_critical_difference(toy, METHODS, values=[])
