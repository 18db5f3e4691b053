"""htmlpads: an independent evaluation set of Yahtzee pad photos.

The pad is drawn in HTML/CSS and rendered by headless Chromium; handwriting comes from
held-out fonts and reserved MNIST rows; the photo model is this package's own. Nothing is
shared with the ``ocr`` package. See README.md.
"""

from .maker import PadPhoto, PadPhotoMaker, Side

__all__ = ["PadPhoto", "PadPhotoMaker", "Side"]
