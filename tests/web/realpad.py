"""A photo of a filled front page for the test through the real reader."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def sample_photo() -> bytes:
    """A front-page photo from sample_pads/photos/, else one rendered by padsynth.render."""
    photos = ROOT / "sample_pads" / "photos"
    for p in sorted(photos.glob("*front*.jpg")) if photos.is_dir() else []:
        return p.read_bytes()
    from padsynth.render import sample
    for seed in range(1, 50):
        s = sample(seed, split="eval")
        if s.side.value == "front":
            return bytes(s.jpeg)
    raise RuntimeError("no front-page sample photo")
