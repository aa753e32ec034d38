"""JSON API v1: one blueprint (``common.bp``), its routes by concern (see ``common``)."""
from . import rules, tables, hands  # noqa: F401, I001  (each adds its routes, in this order, to the blueprint)
from .blueprint import bp  # noqa: F401
