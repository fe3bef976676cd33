"""What the book's package needs beside prunekit: its dependencies and extras (the
``dependencies`` and ``optional-dependencies`` of ``book/pyproject.toml``, which
``tests/book/test_book_packaging.py`` compares with :data:`DEPENDENCIES` and :data:`EXTRAS`),
and an error that names the extra to install when a package is missing.

* :data:`DEPENDENCIES`: what the chapters, the exercises and this package import beside
  prunekit (the install cell of every notebook installs pdtbook, which brings them);
* ``study``: hierarchical shrinkage (imodels), one baseline of Chapter 9's study;
* ``cluster``: Dask's distributed scheduler, for ``--dask-scheduler`` of the runners;
* ``optimal``: STreeD (pystreed, prunekit's own ``optimal`` extra), for Chapter 10;
* ``explain``: SHAP, for the page "Using prunekit with scikit-learn".

Only the standard library is imported here, so ``book/install_cell.py`` reads this file
without the package installed.
"""

from __future__ import annotations

import importlib
import importlib.util

#: The package's dependencies beside prunekit, each with the module it is imported as.
DEPENDENCIES = {"pandas": "pandas", "ipython": "IPython", "ipywidgets": "ipywidgets",
                "joblib": "joblib", "matplotlib-inline": "matplotlib_inline",
                "pillow": "PIL", "scikit-posthocs": "scikit_posthocs",
                "statsmodels": "statsmodels", "tqdm": "tqdm"}
#: For each extra, the module each of its distributions is imported as.
EXTRAS = {
    "study": {"imodels": "imodels"},
    "cluster": {"distributed": "distributed"},
    "optimal": {"pystreed": "pystreed"},
    "explain": {"shap": "shap"},
}


def installed(module: str) -> bool:
    """Whether the top-level ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def requirement_of(module: str) -> str:
    """What to install for ``module``: ``pdtbook`` for a dependency, ``pdtbook[extra]`` for
    a module of an extra."""
    extra = next((extra for extra, modules in EXTRAS.items() if module in modules.values()),
                 None)
    return "pdtbook" if extra is None else f"pdtbook[{extra}]"


def missing_error(module: str, needed_by: str) -> ModuleNotFoundError:
    """The error for ``needed_by`` (``"the method 'hs-cv'"``) when ``module`` is missing:
    it names what to install."""
    return ModuleNotFoundError(
        f"{needed_by} needs {module}, which is not installed; install it with "
        f'pip install "{requirement_of(module)}"', name=module)


def require(module: str, needed_by: str):
    """``module``, imported; a :func:`missing_error` when it is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        raise missing_error(module, needed_by) from None
