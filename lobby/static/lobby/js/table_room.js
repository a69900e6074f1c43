// A room table's panel on the table page: once the game is over, ask the
// lobby what the game paid each player (the settlement follows the end by a
// moment) and show it next to their names, with their new levels.
const panel = document.querySelector("[data-room-facts]");
const gameOver = document.getElementById("game-over");
const { gettext, interpolate } = window;

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

async function poll(tries) {
  try {
    const response = await fetch(panel.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const status = await response.json();
      if (status.settled) { show(status.results); return; }
    }
  } catch { /* try again */ }
  if (tries > 0) setTimeout(() => poll(tries - 1), 1000);
}

if (panel && gameOver && !panel.hasAttribute("data-settled")) {
  const watch = new MutationObserver(() => {
    if (!gameOver.hidden) { watch.disconnect(); poll(60); }
  });
  watch.observe(gameOver, { attributes: true, attributeFilter: ["hidden"] });
  if (!gameOver.hidden) poll(60);
}
