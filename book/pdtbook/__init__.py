"""pdtbook, the code of the book *Pruning Decision Trees*: what only its chapters and exercises
use — chapter figures and explorers, exercise checks, the experiment and study runners, the
Weka and rpart bridges, and the result tables the chapters print. It imports prunekit's
public API; prunekit never imports it."""

from importlib import metadata as _metadata

try:     # the installed distribution's version; the source's own when it is not installed
    __version__ = _metadata.version("pdtbook")
except _metadata.PackageNotFoundError:
    __version__ = "0.3.0"
