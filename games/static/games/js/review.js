// The post-game review on the replay page: computed after the game by a
// background task; until it is ready, ask the server again every few seconds
// (3 s, then half as long again each time, up to 20 s).
// Once it is there, its chart is drawn (static/js/charts.js).
import { poll, refreshFragment } from "../../js/poller.js";
import { drawCharts } from "../../js/charts.js";

/** @type {HTMLElement | null} */
const box = document.querySelector("[data-review]");
/** @param {HTMLElement} box */
const ready = (box) => Boolean(box.querySelector("[data-review-ready]"));

if (box && !ready(box)) {
  const url = box.dataset.reviewUrl || "";
  poll(async () => {
    if (ready(box)) return true;
    await refreshFragment(box, url);
    if (ready(box)) drawCharts(box);
    return ready(box);
  }, { first: 2000, every: 3000, growth: 1.5, max: 20000 });
}
