"""A flask-smorest Blueprint whose JSON parsing never raises anything but a 400."""

from __future__ import annotations

import json
from typing import Any

import flask
from flask_smorest import Blueprint as _Blueprint
from webargs import core
from webargs.flaskparser import FlaskParser


class SafeParser(FlaskParser):
    def _raw_load_json(self, req: flask.Request) -> Any:
        if not core.is_json(req.mimetype):
            return core.missing
        data = req.get_data(cache=True)
        try:
            return core.parse_json(data)
        except json.JSONDecodeError:
            raise
        except (RecursionError, ValueError) as exc:  # too deep, too long an integer, ...
            # (a non-empty doc: webargs reads an empty one as "no body")
            raise json.JSONDecodeError(f"unreadable JSON: {type(exc).__name__}", "?", 0) from None


class Blueprint(_Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = SafeParser()
