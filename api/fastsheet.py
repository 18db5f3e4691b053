"""The fast path for loading the common sheet: it lives in ``scorepad.fastsheet`` (the
command line uses it too); the API's modules import it from here."""

from __future__ import annotations

from scorepad.fastsheet import fast_load, load

__all__ = ["fast_load", "load"]
