"""Synthetic photo sets: NAME.jpg with NAME.truth.json (the true sheet) and NAME.meta.json."""

from __future__ import annotations

import json
from pathlib import Path

from ocr.layout import Side
from scorepad.schemas import dump_sheet

from .render import sample
from .variants import variant_sample


def write_samples(directory: Path, count: int, seed: int, split: str = "eval",
                  side: Side | None = None, design: str | None = None) -> list[Path]:
    """``design``: one of ``padsynth.variants.VARIANTS`` (another pad's design, always written
    with the evaluation hands) instead of the pad ``scorepad render`` prints."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for i in range(count):
        s = variant_sample(seed + i, design) if design else sample(seed + i, split=split, side=side)
        stem = directory / f"pad-{seed + i:05d}{f'-{design}' if design else ''}-{s.side.value}"
        stem.with_suffix(".jpg").write_bytes(s.jpeg)
        stem.with_suffix(".truth.json").write_text(json.dumps(dump_sheet(s.sheet), indent=2) + "\n")
        meta = {"side": s.side.value, "seed": seed + i, "split": "eval" if design else split,
                "design": design or "standard",
                "angle": round(s.spec.angle, 1), "exif_orientation": s.spec.exif_orientation,
                "blur": round(s.spec.blur, 2), "jpeg_quality": s.spec.jpeg}
        stem.with_suffix(".meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        written.append(stem.with_suffix(".jpg"))
    return written
