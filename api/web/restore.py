"""Restoring a group from its backup on the "My groups" page: a form (CSRF-checked like every
form) that does what POST /api/v1/backups does, and says what happened in words."""

from __future__ import annotations

import json
from typing import Any

from flask import render_template, request, url_for
from marshmallow import ValidationError
from sqlalchemy.exc import IntegrityError

from .. import auth, storage
from ..db import writing
from ..schemas import BackupSchema
from .common import bp


def _again(message: str, status: int) -> tuple[str, int]:
    return render_template("web/groups.html", restore_error=message), status


@bp.post("/groups/restore")
def restore_backup() -> tuple[str, int]:
    upload = request.files.get("backup")
    token = (request.form.get("token") or "").strip()
    if "#join=" in token:  # the invite link pasted whole
        token = token.split("#join=", 1)[1].split("&", 1)[0]
    if upload is None or not upload.filename:
        return _again("Choose the backup file (scorepad-….json) to restore.", 422)
    if not auth.is_group_token(token):
        return _again("The group's key is needed: paste the group's invite link or its key "
                      "(it starts with spg_).", 422)
    try:
        data: Any = json.loads(upload.read())
        body = BackupSchema().load(data)
    except (ValueError, UnicodeDecodeError, ValidationError):
        return _again("This file is not a scorepad backup (the file “Download backup” saves).",
                      422)
    if auth.hash_token(token) != body["group"]["token_hash"]:
        return _again("This key is not the key of the group in the backup.", 403)
    try:
        with writing() as s:
            g = storage.restore(s, body, new_ids=True)
            gid, name = g.id, g.name
    except IntegrityError:
        return _again("This group is still here: its key is in use, so there is nothing to "
                      "restore. Open it from the list above or with its invite link.", 409)
    link = url_for("web.group_page", gid=gid) + "#join=" + token
    return render_template("web/groups.html", restored={
        "name": name, "matches": len(body["matches"]), "link": link}), 201
