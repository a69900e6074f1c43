// A room table's panel on the table page: once the game is settled, show
// what it paid each player next to their names, with their new levels. The
// table socket brings it (a `settlement` notice, docs/protocol.md); the
// panel asks the lobby's status only if that frame has not come a few
// seconds after the game ended (a socket that was reconnecting, a page
// opened between the end and the settlement).
const panel = document.querySelector("[data-room-facts]");
const gameOver = document.getElementById("game-over");
const { gettext, interpolate } = window;
const FALLBACK_AFTER_MS = 5000;

function show(results) {
  for (const result of results) {
    const item = panel.querySelector(`[data-room-seat="${result.seat}"]`);
    if (!item || result.net === null) continue;
    item.dataset.net = result.net;
    item.dataset.xp = result.xp;
    item.dataset.level = result.level;
    const chips = interpolate(gettext("%s chips"), [`${result.net >= 0 ? "+" : ""}${result.net}`]);
    const level = interpolate(gettext("level %s"), [result.level]);
    const xp = result.xp ? `, +${result.xp} ${gettext("experience")}` : "";
    item.querySelector("strong").nextSibling.textContent = ` · ${level} `;
    item.querySelector("[data-room-result]").textContent = ` · ${chips}${xp}`;
  }
  panel.dataset.settled = "";
  panel.open = true;
}

const settled = () => panel.hasAttribute("data-settled");

async function poll(tries) {
  if (settled()) return;
  try {
    const response = await fetch(panel.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const status = await response.json();
      if (settled()) return;
      if (status.settled) { show(status.results); return; }
    }
  } catch { /* try again */ }
  if (tries > 0) setTimeout(() => poll(tries - 1), 1000);
}

if (panel && gameOver && !settled()) {
  const onFrame = (event) => {
    const frame = event.detail;
    if (frame.type !== "settlement" || settled()) return;
    document.removeEventListener("table-frame", onFrame);
    show(frame.results || []);
  };
  document.addEventListener("table-frame", onFrame);
  const fallback = () => setTimeout(() => poll(60), FALLBACK_AFTER_MS);
  const watch = new MutationObserver(() => {
    if (!gameOver.hidden) { watch.disconnect(); fallback(); }
  });
  watch.observe(gameOver, { attributes: true, attributeFilter: ["hidden"] });
  if (!gameOver.hidden) { watch.disconnect(); fallback(); }
}
