"""PadPhotoMaker: sheet -> HTML -> headless Chromium -> photo model -> JPEG, with its truth."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

import cv2
import numpy as np
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from scorepad.boxes import TotalField
from scorepad.card import Sheet, compute_totals
from scorepad.schemas import dump_sheet

from . import hands, layout, photo, sheets

Side = Literal["front", "back"]
GENERATOR = "htmlpads/1"
BACK_SHARE = 0.12  # share of random photos that show the PLAYERS' SCORES side
MAX_ZOOM = 1.8


@dataclass
class PadPhoto:
    """One photo of a pad and what is written on it."""

    jpeg: bytes
    truth: Sheet  # the sheet exactly as written on the photographed side
    side: Side
    meta: dict[str, Any] = field(default_factory=dict)

    def truth_dict(self) -> dict[str, Any]:
        return dump_sheet(self.truth)

    def truth_json(self) -> str:
        return json.dumps(self.truth_dict(), indent=1)

    def meta_json(self) -> str:
        return json.dumps(self.meta, indent=1)


def _rng(seed: int, part: int) -> np.random.Generator:
    return np.random.default_rng([seed, part])


def given_slips(truth: Sheet) -> list[dict[str, Any]]:
    """For a supplied sheet: written totals of finished games that do not add up."""
    rs = sheets.rules()
    out: list[dict[str, Any]] = []
    for player in truth.players:
        for n, game in enumerate(player.games, 1):
            if game is None or not game.complete:
                continue
            t = compute_totals(game, rs)
            wrong = {f.value: {"written": game.totals[f], "correct": t.expected(f)}
                     for f in TotalField if f in game.totals and game.totals[f] != t.expected(f)}
            if wrong:
                out.append({"game": n, "kind": "given", "fields": wrong, "carried": None})
    return out


class PadPhotoMaker:
    """Launches Chromium once; every ``photo`` call reuses the same page.

    >>> with PadPhotoMaker() as maker:
    ...     p = maker.photo(seed=7)
    """

    def __init__(self, executable_path: str = "/usr/bin/chromium") -> None:
        self.executable_path = executable_path
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._page: Page | None = None
        # Playwright's sync API runs on a thread of its own: it then works beside another
        # Playwright user of the caller's thread (a test suite's browser, an event loop)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="htmlpads")

    def __enter__(self) -> PadPhotoMaker:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        self._thread.submit(self._start).result()

    def _start(self) -> None:
        if self._page is not None:
            return
        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=self.executable_path,
                                                 args=["--font-render-hinting=none"])
        self._page = self._browser.new_page(viewport={"width": 1000, "height": 1400}, device_scale_factor=1)

    def close(self) -> None:
        self._thread.submit(self._close).result()

    def _close(self) -> None:
        if self._browser is not None:
            self._browser.close()
        if self._pw is not None:
            self._pw.stop()
        self._pw = self._browser = self._page = None

    # ------------------------------------------------------------------------------------

    def _render(self, page_in: layout.Page, target_long: float) -> tuple[np.ndarray, float]:
        return self._thread.submit(self._render_here, page_in, target_long).result()

    def _render_here(self, page_in: layout.Page, target_long: float) -> tuple[np.ndarray, float]:
        """Page -> BGRA sheet image, zoomed so the sheet is about ``target_long`` px tall.

        Chromium returns a JPEG (much faster than PNG); the alpha channel (transparent
        beyond the torn top edge) is drawn here from the same edge the page clips to.
        """
        if self._page is None:
            self._start()
        page = self._page
        assert page is not None
        page.set_content(page_in.html, wait_until="load")
        box = page.evaluate("document.fonts.ready.then(() => {"
                            " const r = document.querySelector('.sheet').getBoundingClientRect();"
                            " return [r.width, r.height]; })")
        w, h = float(box[0]), float(box[1])
        zoom = round(min(max(target_long / max(w, h), 1.0), MAX_ZOOM), 2)
        page.set_viewport_size({"width": math.ceil(w * zoom) + 8, "height": math.ceil(h * zoom) + 8})
        page.evaluate(f"document.querySelector('.sheet').style.zoom = '{zoom}'")
        shot = page.locator(".sheet").screenshot(type="jpeg", quality=95, animations="disabled", caret="hide")
        img = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            raise RuntimeError("Chromium did not return a screenshot")
        ih, iw = img.shape[:2]
        edge = [(x * iw / w, y * ih / h) for x, y in page_in.torn_edge]
        poly = np.array(edge + [(float(iw), float(ih)), (0.0, float(ih))]) * 16
        alpha = np.zeros((ih, iw), np.uint8)
        cv2.fillPoly(alpha, [np.round(poly).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        return np.dstack([img, alpha]), zoom

    def photo(self, seed: int, sheet: Sheet | None = None, side: Side | None = None,
              player: int = 0) -> PadPhoto:
        """A photo, deterministic per seed: a random sheet unless ``sheet`` is given.

        The front shows one player's card (``sheet.players[player]``); the back shows the
        PLAYERS' SCORES table of up to six players.
        """
        if side is None:
            if sheet is not None:
                side = "front" if any(p.games for p in sheet.players) else "back"
            else:
                side = "back" if _rng(seed, 0).random() < BACK_SHARE else "front"
        slips: list[dict[str, Any]]
        in_progress: list[int] = []
        bonus_games: list[int] = []
        if sheet is None:
            make = sheets.random_front if side == "front" else sheets.random_back
            plan = make(_rng(seed, 1))
            truth = plan.sheet
            slips = [s.to_dict() for s in plan.slips]
            in_progress, bonus_games = plan.in_progress, plan.bonus_games
        else:
            truth = sheets.front_view(sheet, player) if side == "front" else sheets.back_view(sheet)
            slips = given_slips(truth)
            if side == "front":
                games = truth.players[0].games
                in_progress = [n for n, g in enumerate(games, 1) if g is not None and not g.complete
                               and not g.blank]
                bonus_games = [n for n, g in enumerate(games, 1) if g is not None and g.bonus_checks]
        hand = hands.random_hand(_rng(seed, 2))
        look = layout.random_look(_rng(seed, 3))
        html_rng = _rng(seed, 4)
        if side == "front":
            page = layout.front_html(look, hand, truth.players[0], html_rng)
        else:
            page = layout.back_html(look, hand, truth.players, html_rng)
        photo_rng = _rng(seed, 5)
        shot = photo.random_shot(photo_rng, 1.3 if side == "front" else 0.9)
        # about the size the sheet will have in the photo (its long side along the frame's height)
        target = shot.fill * (shot.height if side == "front" else max(shot.width, shot.height)) * 0.95
        sheet_img, zoom = self._render(page, target)
        if sheet_img.shape[0] < sheet_img.shape[1] and shot.height > shot.width:
            shot.width, shot.height = shot.height, shot.width  # a wide sheet in a wide frame
        result = photo.photograph(sheet_img, look.paper_rgb, photo_rng, shot)
        meta: dict[str, Any] = {
            "generator": GENERATOR,
            "seed": seed,
            "side": side,
            "hand": hand.meta(),
            "layout": look.meta(),
            "render": {"zoom": zoom, "sheet_px": [int(sheet_img.shape[1]), int(sheet_img.shape[0])]},
            **result.meta,
            "slips": slips,
            "slip_columns": sorted({s["game"] for s in slips if s["game"]}),
            "in_progress": in_progress,
            "bonus_games": bonus_games,
            "given_sheet": sheet is not None,
        }
        return PadPhoto(jpeg=result.jpeg, truth=truth, side=side, meta=meta)
