"""The former name of :mod:`prunekit.validation`, kept while the library's modules move over."""

from prunekit import validation as _validation

globals().update({name: value for name, value in vars(_validation).items()
                  if not name.startswith("__")})
