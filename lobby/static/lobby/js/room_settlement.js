// A room table's panel on the table page (lobby/_table_room.html): once the
// game is settled, show what it paid each player next to their names, with
// their new levels. The table socket brings it (a `settlement` notice,
// docs/protocol.md); the panel asks the lobby's status only if that frame has
// not come a few seconds after the game ended (a socket that was
// reconnecting, a page opened between the end and the settlement).
// (The waiting page of a room table, before its game, is room_waiting.js.)
import { getJson, poll } from "../../js/poller.js";

/** @typedef {{seat: number, net: number | null, xp: number | null, level: number}} SeatResult */

/** @type {HTMLDetailsElement | null} */
const panel = document.querySelector("[data-room-facts]");
const gameOver = document.getElementById("game-over");
const gettext = window.gettext || ((/** @type {string} */ text) => text);
const interpolate = window.interpolate || ((/** @type {string} */ template, /** @type {unknown[]} */ values) => {
  let index = 0;
  return template.replace(/%s/g, () => String(values[index++]));
});
const FALLBACK_AFTER_MS = 5000;

/**
 * @param {HTMLDetailsElement} panel
 * @param {SeatResult[]} results
 */
function show(panel, results) {
  for (const result of results) {
    /** @type {HTMLElement | null} */
    const item = panel.querySelector(`[data-room-seat="${result.seat}"]`);
    if (!item || result.net === null) continue;
    item.dataset.net = String(result.net);
    item.dataset.xp = String(result.xp);
    item.dataset.level = String(result.level);
    const chips = interpolate(gettext("%s chips"), [`${result.net >= 0 ? "+" : ""}${result.net}`]);
    const level = interpolate(gettext("level %s"), [result.level]);
    const xp = result.xp ? `, +${result.xp} ${gettext("experience")}` : "";
    const name = item.querySelector("strong");
    if (name && name.nextSibling) name.nextSibling.textContent = ` · ${level} `;
    const line = item.querySelector("[data-room-result]");
    if (line) line.textContent = ` · ${chips}${xp}`;
  }
  panel.dataset.settled = "";
  panel.open = true;
}

/** @param {HTMLDetailsElement} panel @param {HTMLElement} gameOver */
function follow(panel, gameOver) {
  const settled = () => panel.hasAttribute("data-settled");
  /** @param {Event} event */
  const onFrame = (event) => {
    const frame = /** @type {CustomEvent} */ (event).detail;
    if (frame.type !== "settlement" || settled()) return;
    document.removeEventListener("table-frame", onFrame);
    show(panel, frame.results || []);
  };
  document.addEventListener("table-frame", onFrame);
  const url = panel.dataset.statusUrl || "";
  const fallback = () => poll(async () => {
    if (settled()) return true;
    const status = await getJson(url);
    if (settled()) return true;
    if (status && status.settled) {
      show(panel, status.results);
      return true;
    }
    return false;
  }, { first: FALLBACK_AFTER_MS, every: 1000, tries: 61 });
  const watch = new MutationObserver(() => {
    if (!gameOver.hidden) { watch.disconnect(); fallback(); }
  });
  watch.observe(gameOver, { attributes: true, attributeFilter: ["hidden"] });
  if (!gameOver.hidden) { watch.disconnect(); fallback(); }
}

if (panel && gameOver && !panel.hasAttribute("data-settled")) follow(panel, gameOver);
