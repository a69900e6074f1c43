// Hints at the table (docs/fair-play.md): the "Hint" button asks the server
// for the hard computer's choice from the player's own view ({"type": "hint"});
// the answer names the move and why, and the tile is marked in the hand.
// Refused in ranked games (the button is not shown there).
import { app, els, keyOf, myTurn } from "./table_state.js";
import { endText, format, gettext, tileText } from "./table_texts.js";

const button = document.querySelector('[data-action="hint"]');
const box = document.getElementById("hint-box");
const hint = { waiting: false, frame: null, restUntil: 0 };

function hintAllowed() {
  return Boolean(button && app.table && !app.table.ranked && app.view && !app.view.game_over && myTurn());
}

function moveText(action) {
  if (action.type === "play") {
    return format(gettext("Play %(tile)s %(end)s."), { tile: tileText(action.tile), end: endText(action.end) });
  }
  return action.type === "draw" ? gettext("Draw a tile.") : gettext("Pass.");
}

/** Show or hide the button and the latest hint for the current state. */
export function renderHint() {
  if (!button || !box) return;
  if (hint.frame && hint.frame.seq !== app.seq) hint.frame = null; // the game moved on
  button.hidden = !hintAllowed();
  button.disabled = hint.waiting || app.pending || Date.now() < hint.restUntil;
  button.textContent = hint.waiting ? gettext("Thinking…") : gettext("Hint");
  markTile();
  const frame = hint.frame;
  box.hidden = !frame;
  if (!frame) {
    box.replaceChildren();
    return;
  }
  const title = document.createElement("strong");
  title.textContent = moveText(frame.action);
  box.replaceChildren(title, " ", frame.why || "");
  box.dataset.hintTile = frame.action.tile ? keyOf(frame.action.tile) : "";
  box.dataset.hintEnd = frame.action.end || "";
}

/** Mark the hinted tile in the hand (again after every redraw of the hand). */
function markTile() {
  const key = hint.frame && hint.frame.action.tile ? keyOf(hint.frame.action.tile) : null;
  for (const tile of els.hand.querySelectorAll("[data-tile]")) {
    const hinted = tile.dataset.tile === key;
    if (tile.classList.contains("hand-tile--hinted") !== hinted) tile.classList.toggle("hand-tile--hinted", hinted);
  }
}

new MutationObserver(markTile).observe(els.hand, { childList: true });

/** A `hint` frame from the server. */
export function hintAnswered(frame) {
  hint.waiting = false;
  hint.frame = frame && frame.seq === app.seq ? frame : null;
  // The server answers one hint every few seconds: rest the button meanwhile.
  const rest = Math.max(0, Number(frame && frame.cooldown) || 0) * 1000;
  hint.restUntil = Date.now() + rest;
  if (rest) setTimeout(renderHint, rest + 50);
  renderHint();
}

/** An `error` frame: a hint that was asked for will not come. */
export function hintRefused() {
  if (!hint.waiting) return;
  hint.waiting = false;
  renderHint();
}

export function setupHint(send) {
  if (!button) return;
  button.addEventListener("click", () => {
    if (hint.waiting || !hintAllowed()) return;
    if (send({ type: "hint" })) {
      hint.waiting = true;
      renderHint();
    }
  });
}
