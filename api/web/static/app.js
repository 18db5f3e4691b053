/* scorepad web pages: a little vanilla JavaScript, as ES modules (js/): each page's part
   starts when its elements are there. The rule sets' numbers come from the page's rules-data
   (the server's rule sets); nothing here knows one. When every part has started, the
   page's <html> gets data-ready. */
import { initDraft } from "./js/draft.js";
import { initGames } from "./js/games.js";
import { initCorners, initVerdict } from "./js/photo.js";
import { initGroupPage, initGroups, initSave } from "./js/groups.js";
import { initHome } from "./js/home.js";
import { initOptions } from "./js/options.js";
import { initPad } from "./js/pad.js";
import { initReview } from "./js/review.js";

document.addEventListener("DOMContentLoaded", function () {
  initHome(); initPad(); initDraft(); initGames(document); initReview(); initOptions(); initSave(); initGroups(); initGroupPage(); initVerdict();
  initCorners();
  document.documentElement.setAttribute("data-ready", "1");  // the page's script has run
});
