"""A fast stand-in for the pad reader: draws a simple pad photo and answers like ocr.scan_image.

The reader's result format is ScanResult.to_dict(): the sheet plus every cell with its
value, confidence, status and crop box in the photo. Here the "photo" is drawn with
PIL from a known sheet, and chosen cells are reported as unsure.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from api.web.pad import ROWS

CELL_W, CELL_H, LABEL_W, TOP = 90, 34, 200, 60


def card_values() -> dict[str, int]:
    # Ann's game: upper 63 (bonus 35), but 7 Aces is impossible (the finding the test wants
    # only after the user "corrects" the unsure Aces cell to 7).
    return {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
            "upper_total_score": 63, "upper_bonus": 35, "upper_total": 98,
            "three_of_a_kind": 20, "four_of_a_kind": 0, "full_house": 25,
            "small_straight": 30, "large_straight": 40, "yahtzee": 0, "chance": 22,
            "yahtzee_bonus": 0, "lower_total": 137, "upper_total_repeat": 98,
            "grand_total": 235}


def draw_photo(values: dict[str, int], name: str) -> tuple[bytes, dict[str, list[int]]]:
    rows = [("name", "NAME")] + [(r.key, r.label) for r in ROWS]
    w, h = LABEL_W + CELL_W + 20, TOP + CELL_H * len(rows) + 20
    im = Image.new("RGB", (w, h), (250, 248, 240))
    d = ImageDraw.Draw(im)
    d.text((10, 20), "YAHTZEE SCORE CARD", fill=(30, 30, 30))
    boxes: dict[str, list[int]] = {}
    for i, (key, label) in enumerate(rows):
        y = TOP + i * CELL_H
        d.rectangle([10, y, LABEL_W + CELL_W, y + CELL_H], outline=(40, 40, 40))
        d.line([LABEL_W, y, LABEL_W, y + CELL_H], fill=(40, 40, 40))
        d.text((16, y + 10), label, fill=(30, 30, 30))
        text = name if key == "name" else str(values.get(key, "") if key in values else "")
        d.text((LABEL_W + 20, y + 10), text, fill=(20, 40, 120))
        boxes[key] = [LABEL_W, y, LABEL_W + CELL_W, y + CELL_H]
    out = io.BytesIO()
    im.save(out, "JPEG", quality=90)
    return out.getvalue(), boxes


class FakeScanner:
    """``scanner(data, rules) -> dict``; cells in ``unsure`` come back as given there:
    ``key: (status, value, candidates[, ink])`` (a confident misreading too; ``ink``: what
    the ink read where the reader took ``value`` for a failed sum's sake). Like the reader,
    the sheet carries each inked cell's reading (the candidates other than the value read)."""

    def __init__(self, unsure: dict[str, Any] | None = None, name: str = "Ann") -> None:
        self.values = card_values()
        self.name = name
        self.unsure = unsure if unsure is not None else {
            "aces": ("needs_review", 3, [3, 8]), "full_house": ("needs_review", 25, [25, 23]),
            "chance": ("unreadable", None, []),
        }
        self.calls = 0
        self.corners: list[Any] = []  # the corners each call was given (None: searched)
        self.find_pad = True  # False: the pad is found only from marked corners (not_a_pad)

    def photo(self) -> bytes:
        return draw_photo(self.values, self.name)[0]

    def __call__(self, data: bytes, rules: str, corners: Any = None) -> dict[str, Any]:
        self.calls += 1
        self.corners.append(corners)
        if corners is None and not self.find_pad:
            from api.web import ScanFailed
            raise ScanFailed("not_a_pad", "no Yahtzee score pad was found in the photo")
        _, boxes = draw_photo(self.values, self.name)
        cells = []
        read: dict[str, int | None] = {}
        readings: dict[str, dict[str, Any]] = {}
        for key, box in boxes.items():
            status, value, cands = "confident", self.values.get(key), []
            ink = None
            if key == "name":
                value = self.name
            if key in self.unsure:
                status, value, cands, *more = self.unsure[key]
                ink = more[0] if more else None
            kind = "text" if key == "name" else ("blank" if value is None and status ==
                                                  "confident" else "number")
            conf = {"confident": 0.97, "needs_review": 0.61, "unreadable": 0.0}[status]
            cells.append({"row": key, "field": key, "column": 0, "game": 0, "kind": kind,
                          "value": value, "confidence": conf, "status": status,
                          "inferred": False,
                          "candidates": [{"value": c, "p": 0.5} for c in cands],
                          "box": box, "readers": {}, "ink": ink})
            if key != "name":
                read[key] = value if isinstance(value, int) else None
                if kind != "blank":
                    readings[key] = {"status": status, "confidence": conf, "box": box,
                                     "candidates": [c for c in cands
                                                    if isinstance(c, int) and c != value],
                                     "photo": None, **({"ink": ink} if ink is not None else {})}
        boxes_json = {k: v for k, v in read.items()
                      if k in {r.key for r in ROWS if r.kind == "box"} and v is not None}
        totals = {k: v for k, v in read.items()
                  if k in {r.key for r in ROWS if r.kind == "total"} and v is not None}
        sheet = {"format": "scorepad/sheet@1", "rules": rules, "title": None,
                 "players": [{"name": self.name, "games": [
                     {"boxes": boxes_json, "yahtzee_bonus_checks": 0, "totals": totals,
                      "readings": readings}]}]}
        w, h = LABEL_W + CELL_W + 20, TOP + CELL_H * (len(ROWS) + 1) + 20
        used = [[10, 10], [w - 10, 10], [w - 10, h - 10], [10, h - 10]]
        return {"sheet": sheet, "side": "front", "rotation": 0, "match_score": 0.9,
                "engine": "fake", "seconds": 0.01,
                "corners": [list(map(int, c)) for c in corners] if corners else used,
                "corners_given": corners is not None,
                "counts": {"confident": 0, "needs_review": 2, "unreadable": 1},
                "cells": cells}
