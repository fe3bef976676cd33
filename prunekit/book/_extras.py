"""What the book layer needs beyond the core's dependencies: prunekit's extras (the
``optional-dependencies`` of pyproject.toml, which ``tests/test_packaging.py`` compares with
:data:`EXTRAS`), and an error that names the extra to install when a package is missing.

* ``book``: what the chapters, the exercises and the book layer import
  (``pip install "prunekit[book]"``; the install cell of every notebook installs it);
* ``study``: hierarchical shrinkage (imodels), one baseline of Chapter 9's study;
* ``cluster``: Dask's distributed scheduler, for ``--dask-scheduler`` of the runners;
* ``optimal``: STreeD (pystreed), the solver of the core's ``prunekit.optimal.optimal_tree``.

Only the standard library is imported here, so ``book/install_cell.py`` reads this file
without prunekit installed.
"""

from __future__ import annotations

import importlib
import importlib.util

#: For each extra, the module each of its distributions is imported as.
EXTRAS = {
    "book": {"ipython": "IPython", "ipywidgets": "ipywidgets", "joblib": "joblib",
             "matplotlib-inline": "matplotlib_inline", "pillow": "PIL",
             "scikit-posthocs": "scikit_posthocs", "statsmodels": "statsmodels",
             "tqdm": "tqdm"},
    "study": {"imodels": "imodels"},
    "cluster": {"distributed": "distributed"},
    "optimal": {"pystreed": "pystreed"},
}


def installed(module: str) -> bool:
    """Whether the top-level ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def extra_of(module: str) -> str:
    """The extra that installs ``module``."""
    return next(extra for extra, modules in EXTRAS.items() if module in modules.values())


def missing_error(module: str, needed_by: str) -> ModuleNotFoundError:
    """The error for ``needed_by`` (``"the method 'hs-cv'"``) when ``module`` is missing:
    it names the extra that installs it."""
    return ModuleNotFoundError(
        f"{needed_by} needs {module}, which is not installed; install it with "
        f'pip install "prunekit[{extra_of(module)}]"', name=module)


def require(module: str, needed_by: str):
    """``module``, imported; a :func:`missing_error` when it is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        raise missing_error(module, needed_by) from None
