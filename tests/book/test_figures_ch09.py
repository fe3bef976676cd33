"""The chapter 9 figures: the study's methods by size and error with the Pareto front, their
critical-difference diagram, their ranks per data set, and the synthetic family against its
label noise."""

import pandas as pd
import pytest

import pdtbook.study as st
from pdtbook.figures import plot_critical_difference, plot_noise, plot_pareto, plot_ranks


def _toy_results():
    """Three methods on four data sets, one split each; "a" is best on all but one."""
    errors = {"d1": (0.1, 0.2, 0.3), "d2": (0.2, 0.1, 0.3), "d3": (0.1, 0.3, 0.2),
              "d4": (0.1, 0.1, 0.4)}
    sizes = {"d1": (5, 3, 9), "d2": (5, 3, 9), "d3": (6, 3, 9), "d4": (4, 2, 9)}
    return pd.DataFrame([dict(dataset=d, split=0, method=m, test_error=errors[d][i],
                              n_leaves=sizes[d][i])
                         for d in errors for i, m in enumerate(("rep", "pep", "forest"))])


def test_plots_label_the_methods():
    toy = _toy_results()
    ax = plot_pareto(toy)
    assert {t.get_text() for t in ax.texts} == {"REP", "PEP", "random forest"}
    ax = plot_pareto(toy, "d1", label="front")
    assert ax.get_xscale() == "log" and ax.get_title() == "d1"
    # on d1 PEP (3 leaves, error 0.2) and REP (5, 0.1) are optimal, the forest is not
    assert {t.get_text() for t in ax.texts} == {"REP", "PEP"}
    with pytest.raises(ValueError, match="label"):
        plot_pareto(toy, label="some")
    ax = plot_pareto(toy, "d1", label="front", numbers=True)
    number = {m: str(i + 1) for i, m in enumerate(st.STUDY_METHODS)}
    assert sorted(t.get_text() for t in ax.texts[:-1]) == sorted([number["rep"],
                                                                  number["pep"]])
    assert ax.texts[-1].get_text().split("\n") == [
        f"{number['rep']:>2}  REP", f"{number['pep']:>2}  PEP"]
    ax = plot_critical_difference(toy)
    assert {"REP", "PEP", "random forest"} <= {t.get_text().split(" (")[0].split(") ")[-1]
                                              for t in ax.texts}
    with pytest.raises(ValueError, match="no results"):
        plot_pareto(toy, "d9")


def test_rank_heat_map_and_noise_panels():
    toy = _toy_results()
    ax = plot_ranks(toy)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["REP", "PEP", "random forest"]
    assert ax.images[0].get_array().tolist() == st.ranks(toy).to_numpy().tolist()
    rows = pd.DataFrame([dict(dataset=st._synthetic_name(m, p), split=0, method=method,
                              test_error=p + 0.01 * i)
                         for m in (200, 1000) for p in (0.0, 0.1)
                         for i, method in enumerate(("rep", "pep"))])
    axes = plot_noise(rows, ["rep", "pep"])
    assert [ax.get_title() for ax in axes] == ["m = 200", "m = 1000"]
    # the excess over the Bayes risk (= the noise) is what is drawn
    assert axes[0].lines[1].get_ydata().tolist() == pytest.approx([0.01, 0.01])
    with pytest.raises(ValueError, match="no synthetic"):
        plot_noise(toy, ["rep"])
