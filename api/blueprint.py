"""A flask-smorest Blueprint whose JSON parsing never raises anything but a 400, and whose
responses may be written by a function of the view's own (see ``Blueprint.response``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import flask
from flask_smorest import Blueprint as _Blueprint
from flask_smorest.utils import (
    resolve_schema_instance,
    set_status_and_headers_in_response,
    unpack_tuple_response,
)
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug import Response

from . import textguard
from .shape import projection


class SafeParser(FlaskParser):
    def _raw_load_json(self, req: flask.Request) -> Any:
        if not core.is_json(req.mimetype):
            return core.missing
        data = req.get_data(cache=True)
        try:
            # as json.loads reads bytes: a surrogate's own bytes (CESU-8) pass, so that the
            # guard below names the field that holds it, as on the fast paths
            parsed = core.parse_json(data.decode("utf-8", "surrogatepass"))
        except json.JSONDecodeError:
            raise
        except (RecursionError, ValueError) as exc:  # too deep, too long an integer, ...
            # (a non-empty doc: webargs reads an empty one as "no body")
            raise json.JSONDecodeError(f"unreadable JSON: {type(exc).__name__}", "?", 0) from None
        textguard.check_json(parsed, data)  # 422 for NUL or a lone surrogate anywhere
        return parsed


class Blueprint(_Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = SafeParser()

    def response(self, status_code: Any, schema: Any = None, *,
                 write: Callable[[Any], str] | None = None, project: bool = False,
                 **kwargs: Any) -> Any:
        """flask-smorest's ``response``. With ``write``, the schema's output is written by
        ``write`` (``shape.json_text``: /verify, /tally and backups, byte for byte as ever)
        instead of ``flask.jsonify``; with ``project`` too, it is dumped by
        ``shape.projection(schema)`` (the core's ``to_dict``, shaped without marshmallow's
        cost per field). Either way the schema shapes the answer and documents it."""
        document = super().response(status_code, schema, **kwargs)
        if write is None:
            return document
        instance = resolve_schema_instance(schema)
        dump = projection(instance) if project else instance.dump

        def decorator(func: Callable[..., Any]) -> Any:
            @functools.wraps(func)
            def shaped(*args: Any, **kw: Any) -> Any:
                result, status, headers = unpack_tuple_response(func(*args, **kw))
                if isinstance(result, Response):
                    set_status_and_headers_in_response(result, status, headers)
                    return result
                resp = flask.current_app.response_class(write(dump(result)),
                                                        mimetype="application/json")
                set_status_and_headers_in_response(resp, status, headers)
                if status is None:
                    resp.status_code = int(status_code)
                return resp

            return document(shaped)

        return decorator
