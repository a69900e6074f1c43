// Hints at the table (docs/fair-play.md): the "Hint" button asks the server
// for the hard computer's choice from the player's own view ({"type": "hint"});
// the answer names the move and why, and the tile is marked in the hand
// (table_render.js). Refused in ranked games (the button is not shown there).
// The hint asked for and the latest answer are in the state (table_reduce.js).
import { tileKey } from "../../js/tiles.js";
import { myTurn } from "./table_reduce.js";
import { endText, format, gettext, tileText } from "./table_texts.js";

/** @typedef {import("./table_reduce.js").TableState} TableState */
/** @typedef {import("./table_types.js").Action} Action */

/** @type {HTMLButtonElement | null} */
const button = document.querySelector('[data-action="hint"]');
const box = document.getElementById("hint-box");

/** @param {TableState} state */
export function hintAllowed(state) {
  return Boolean(button && state.table && !state.table.ranked && state.view && !state.view.game_over && myTurn(state));
}

/** @param {Action} action */
function moveText(action) {
  if (action.type === "play") {
    return format(gettext("Play %(tile)s %(end)s."), { tile: tileText(action.tile), end: endText(action.end) });
  }
  return action.type === "draw" ? gettext("Draw a tile.") : gettext("Pass.");
}

/**
 * Show or hide the button and the latest hint for the current state.
 * @param {TableState} state
 */
export function renderHint(state) {
  if (!button || !box) return;
  const { waiting, frame, restUntil } = state.hint;
  button.hidden = !hintAllowed(state);
  button.disabled = waiting || state.pending || Date.now() < restUntil;
  button.textContent = waiting ? gettext("Thinking…") : gettext("Hint");
  box.hidden = !frame;
  if (!frame) {
    box.replaceChildren();
    return;
  }
  const title = document.createElement("strong");
  title.textContent = moveText(frame.action);
  box.replaceChildren(title, " ", frame.why || "");
  box.dataset.hintTile = frame.action.type === "play" ? tileKey(frame.action.tile) : "";
  box.dataset.hintEnd = frame.action.type === "play" ? frame.action.end : "";
}

/**
 * The button asks with `ask()` (true when the frame was sent).
 * @param {() => boolean} ask
 */
export function setupHint(ask) {
  if (button) button.addEventListener("click", ask);
}
