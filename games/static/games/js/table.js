// The live table page: draws what the server sends over /ws/table/<id>/
// (docs/protocol.md) and sends the player's moves. The server is the
// only authority: nothing here decides what is legal, it only shows the
// `legal` list of the latest `state` frame.
//
// The page keeps one state (table_reduce.js): each frame and each doing of the
// player makes the next one through a pure function, then the page is drawn
// from it (table_render.js). The socket is the site's helper (static/js/socket.js).
import { openSocket } from "../../js/socket.js";
import { setTileFaces } from "../../js/tiles.js";
import { getJson } from "../../js/poller.js";
import {
  announce, gameResultText, render, renderLine, roundResultText, setConnection, tickClocks, toast,
} from "./table_render.js";
import { closest, config, el, els, find, readSetting, saveSetting } from "./table_dom.js";
import {
  act, effects, endsToChoose, initialState, isMe, legalEnds, legalPlay, myTurn, reduce,
} from "./table_reduce.js";
import { errorText, eventText, gettext, nameOf, reactionText } from "./table_texts.js";
import { hintAllowed, setupHint } from "./table_hint.js";
import { renderChat, setupChat } from "./table_chat.js";
import { playSound, setupSound } from "./table_sound.js";

/** @typedef {import("./table_reduce.js").TableState} TableState */
/** @typedef {import("./table_reduce.js").PageAction} PageAction */
/** @typedef {import("./table_reduce.js").Effect} Effect */
/** @typedef {import("./table_types.js").TableFrame} TableFrame */

// ---------------------------------------------------------------- the state

/** The one state of the page: only `receive` and `dispatch` replace it. */
let state = initialState(config, { confirm: readSetting("confirm"), muteReactions: readSetting("mute-reactions") });

/**
 * The player did something on the page: the next state, drawn.
 * @param {PageAction} action
 * @param {{draw?: "all" | "line" | "none"}} [options] what to redraw
 */
function dispatch(action, { draw = "all" } = {}) {
  const before = state;
  state = act(state, action);
  if (state === before || draw === "none") return;
  if (draw === "line") renderLine(state);
  else render(state);
}

/**
 * A frame from the server: the next state, drawn, then what it asks for.
 * @param {TableFrame} frame
 */
function receive(frame) {
  const before = state;
  state = reduce(state, frame, Date.now());
  const asked = effects(before, frame, state);
  // (An event is always followed by its `state`: that one is drawn.)
  if (state !== before && frame.type !== "event") render(state);
  if (state.chat !== before.chat) renderChat(state, config.me || "");
  if (frame.type === "state") {
    fetchRatings();
    // The tile just laid was drawn with its animation, once.
    state = act(state, { type: "shown" });
  }
  asked.forEach(run);
}

/** @param {Effect} effect */
function run(effect) {
  switch (effect.type) {
    case "your_turn":
      announce(gettext("Your turn."));
      playSound("turn");
      break;
    case "moved": {
      const { frame } = effect;
      if (frame.action === "play") playSound("move");
      if (["play", "draw", "pass"].includes(frame.action)) announce(eventText(nameOf(state, frame.seat), isMe(state, frame.seat), frame));
      break;
    }
    case "round_over":
      announce(roundResultText(state, effect.frame.result));
      break;
    case "game_over":
      announce(`${gettext("Game over.")} ${gameResultText(state, effect.frame.winner)}`);
      break;
    case "reaction":
      announce(`${nameOf(state, effect.seat)}: ${reactionText(effect.id)}`);
      break;
    case "later":
      setTimeout(() => render(state), effect.ms);
      break;
    case "go":
      goToRematch(effect.url);
      break;
    case "error":
      toast(errorText(effect.code, effect.message));
      break;
    case "send":
      socket.send(effect.frame);
      break;
    default:
      break;
  }
}

// ---------------------------------------------------------------- socket

const socket = openSocket(config.wsPath, {
  onOpen(reopened) {
    setConnection("open");
    // The server sends a state on connect; after a drop, also ask for the
    // events missed since the last one seen.
    if (reopened) socket.send({ type: "sync", seq: state.seq });
  },
  onFrame(frame) {
    receive(/** @type {TableFrame} */ (frame));
    // The panels that other apps add to the page (games.signals.table_page_panels)
    // follow the frames too, the notices this page does not show itself included.
    document.dispatchEvent(new CustomEvent("table-frame", { detail: frame }));
  },
  onDrop() {
    dispatch({ type: "dropped" });
    setConnection("reconnecting");
  },
  onRefused(close) {
    // 4xxx: the server refused this page (no such table, not allowed): stop.
    dispatch({ type: "dropped" });
    setConnection("closed");
    if (close.reason) toast(close.reason);
  },
});
setConnection("connecting");
setupChat((frame) => send(frame));

/**
 * Send a frame, or say that it could not be.
 * @param {Record<string, unknown>} frame
 */
function send(frame) {
  if (socket.send(frame)) return true;
  toast(gettext("Not connected: your move was not sent."));
  return false;
}

/**
 * A move: one at a time, with the last event seen.
 * @param {Record<string, unknown>} frame
 */
function sendAction(frame) {
  if (state.pending) return;
  if (send({ ...frame, seq: state.seq })) dispatch({ type: "sent" });
  else dispatch({ type: "unselect" });
}

/**
 * @param {string} key
 * @param {string} end
 */
function play(key, end) {
  const action = legalPlay(state, key, end);
  if (action && action.type === "play") sendAction({ type: "play", tile: action.tile, end });
}

/** At a ranked table, once: the players' ratings (shown next to their names)
 * and, for a game already over when the page opened, its rating changes (the
 * `ratings` frame went to the sockets open at the end). */
let ratingsAsked = false;
function fetchRatings() {
  /** @type {HTMLElement | null} */
  const box = els.gameOver.querySelector("[data-ratings-url]");
  const url = box && box.dataset.ratingsUrl;
  if (!url || ratingsAsked) return;
  ratingsAsked = true;
  getJson(url)
    .then((data) => {
      if (data) dispatch({ type: "seat_ratings", current: data.current || [], changes: data.changes || [] });
    })
    .catch(() => {});
}

// ---------------------------------------------------------------- input

/** @param {MouseEvent} event */
function onHandClick(event) {
  const button = closest(event, "[data-tile]");
  if (!button || suppressClick) return;
  const key = button.dataset.tile || "";
  const ends = legalEnds(state, key);
  if (!ends.length) {
    if (myTurn(state)) toast(gettext("This tile does not fit: choose another."));
    return;
  }
  if (ends.length < endsToChoose(state)) {
    play(key, ends[0]);
    return;
  }
  dispatch({ type: "select", key });
  if (!state.selected) return;
  announce(ends.length > 1 ? gettext("It fits both ends: choose the left or the right end.")
    : gettext("Tap the glowing end to place it."));
  // From the keyboard (no pointer position), go on to the ends.
  if (event.detail === 0) /** @type {HTMLElement | null} */ (els.line.querySelector("[data-end]"))?.focus();
}

/** @param {MouseEvent} event */
function onLineClick(event) {
  const spot = closest(event, "[data-end]");
  const key = state.selected;
  if (spot && key) play(key, spot.dataset.end || "");
}

/**
 * The glowing end under (or near) a point.
 * @param {number} x
 * @param {number} y
 * @returns {HTMLElement | null}
 */
function slotAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  /** @type {HTMLElement | null} */
  const spot = hit && hit.closest("[data-end]");
  if (spot) return spot;
  // Forgiving drop: the nearest glowing end within a tile's length.
  /** @type {HTMLElement | null} */
  let best = null;
  let bestDistance = Infinity;
  for (const candidate of els.line.querySelectorAll("[data-end]")) {
    const box = candidate.getBoundingClientRect();
    const distance = Math.hypot(x - (box.left + box.width / 2), y - (box.top + box.height / 2));
    if (distance < bestDistance && candidate instanceof HTMLElement) [best, bestDistance] = [candidate, distance];
  }
  return best && bestDistance < 80 ? best : null;
}

/**
 * A tile held by the pointer (the page's own, not the state: it holds elements).
 * @type {{key: string, x: number, y: number, moved: boolean, ghost: HTMLElement | null, button: HTMLElement} | null}
 */
let drag = null;
let suppressClick = false;

/** @param {PointerEvent} event */
function onPointerDown(event) {
  const button = closest(event, "[data-tile][data-playable]");
  if (!button || event.button > 0 || state.pending) return;
  drag = { key: button.dataset.tile || "", x: event.clientX, y: event.clientY, moved: false, ghost: null, button };
  try {
    button.setPointerCapture(event.pointerId);
  } catch {
    // a pointer already gone (or a synthetic event): the drag still follows the hand's events
  }
}

/** @param {PointerEvent} event */
function onPointerMove(event) {
  if (!drag) return;
  if (!drag.moved) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
    drag.moved = true;
    const face = drag.button.firstElementChild;
    drag.ghost = el("div", { class: "drag-ghost", "aria-hidden": "true" }, face ? face.cloneNode(true) : null);
    document.body.append(drag.ghost);
    drag.button.classList.add("is-dragging");
    dispatch({ type: "drag", key: drag.key }, { draw: "line" });
  }
  if (drag.ghost) drag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px)`;
  const over = slotAt(event.clientX, event.clientY);
  for (const spot of els.line.querySelectorAll("[data-end]")) spot.classList.toggle("is-over", spot === over);
}

/**
 * @param {PointerEvent} event
 * @param {boolean} drop
 */
function endDrag(event, drop) {
  const held = drag;
  if (!held) return;
  drag = null;
  if (!held.moved) return;
  held.ghost?.remove();
  held.button.classList.remove("is-dragging");
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  const spot = drop ? slotAt(event.clientX, event.clientY) : null;
  dispatch({ type: "drag", key: null }, { draw: "none" });
  if (spot) play(held.key, spot.dataset.end || "");
  else renderLine(state);
}

// While a finger or the mouse is on a playable tile (or the keyboard focus),
// where it would go glows on the line.
/** @param {string | null} key */
function setPreview(key) {
  // Not redrawn while a tile is chosen or dragged: its ends glow already (and
  // redrawing the line would take the keyboard focus off them).
  const quiet = Boolean(state.selected || state.dragging);
  dispatch({ type: "preview", key }, { draw: quiet ? "none" : "line" });
}
/** @param {Event} event */
const previewKey = (event) => {
  const tile = closest(event, "[data-tile][data-playable]");
  return tile && myTurn(state) ? tile.dataset.tile || null : null;
};
els.hand.addEventListener("pointerover", (event) => {
  if (event.pointerType === "mouse") setPreview(previewKey(event));
});
els.hand.addEventListener("pointerout", (event) => {
  if (event.pointerType === "mouse" && !els.hand.contains(/** @type {Node | null} */ (event.relatedTarget))) setPreview(null);
});
els.hand.addEventListener("pointerdown", (event) => setPreview(previewKey(event)), true);
els.hand.addEventListener("pointerup", (event) => {
  if (event.pointerType !== "mouse") setPreview(null);
});
els.hand.addEventListener("focusin", (event) => setPreview(previewKey(event)));
els.hand.addEventListener("focusout", (event) => {
  if (!els.hand.contains(/** @type {Node | null} */ (event.relatedTarget))) setPreview(null);
});

els.reactionButtons.addEventListener("click", (event) => {
  const button = closest(event, "[data-react]");
  if (!button || !send({ type: "react", id: button.dataset.react })) return;
  // The server takes one every few seconds: rest the buttons meanwhile.
  const buttons = [...els.reactionButtons.querySelectorAll("button")].filter((item) => item.dataset.react);
  buttons.forEach((item) => { item.disabled = true; });
  setTimeout(() => buttons.forEach((item) => { item.disabled = false; }), 3000);
});
/** @type {HTMLInputElement | null} */
const muteBox = document.querySelector('[data-setting="mute-reactions"]');
if (muteBox) {
  muteBox.checked = state.muteReactions;
  muteBox.addEventListener("change", () => {
    saveSetting("mute-reactions", muteBox.checked);
    dispatch({ type: "mute_reactions", on: muteBox.checked });
  });
}

/** @type {HTMLInputElement | null} */
const confirmBox = document.querySelector('[data-setting="confirm"]');
if (confirmBox) {
  confirmBox.checked = state.confirm;
  confirmBox.addEventListener("change", () => {
    saveSetting("confirm", confirmBox.checked);
    dispatch({ type: "confirm", on: confirmBox.checked });
  });
}

// Tile faces: pips or numbers (a member's preference, a guest's browser).
setTileFaces(readSetting("tile-numbers") ? "numbers" : "pips");
const facesBox = /** @type {HTMLInputElement | null} */ (document.querySelector('[data-setting="tile-numbers"]'));
if (facesBox) {
  facesBox.checked = readSetting("tile-numbers");
  facesBox.addEventListener("change", () => {
    setTileFaces(facesBox.checked ? "numbers" : "pips");
    saveSetting("tile-numbers", facesBox.checked);
    render(state);
  });
}

els.hand.addEventListener("click", onHandClick);
els.hand.addEventListener("pointerdown", onPointerDown);
els.hand.addEventListener("pointermove", onPointerMove);
els.hand.addEventListener("pointerup", (event) => endDrag(event, true));
els.hand.addEventListener("pointercancel", (event) => endDrag(event, false));
els.line.addEventListener("click", onLineClick);
setupHint(() => {
  if (state.hint.waiting || !hintAllowed(state)) return false;
  if (!send({ type: "hint" })) return false;
  dispatch({ type: "hint_asked" });
  return true;
});
setupSound();
els.draw.addEventListener("click", () => sendAction({ type: "draw" }));
els.pass.addEventListener("click", () => sendAction({ type: "pass" }));
find(els.roundOver, '[data-action="next_round"]').addEventListener("click", () => {
  if (send({ type: "next_round", seq: state.seq })) dispatch({ type: "next_round_sent" });
});
els.resign.addEventListener("click", () => {
  if (window.confirm(gettext("Resign this game? It ends now and counts as lost."))) send({ type: "resign", seq: state.seq });
});
find(els.gameOver, '[data-action="toggle-panel"]').addEventListener("click", () => dispatch({ type: "toggle_panel" }));

// The new table comes both as the POST's answer and as a `rematch` frame:
// go there once (a second navigation would abort the first).
/** @type {string | null} */
let leavingTo = null;
/** @param {string} url */
function goToRematch(url) {
  if (leavingTo) return;
  leavingTo = url;
  window.location.assign(url);
}

// Rematch without leaving the page: the server answers with the new table,
// or with who is still awaited (the others see a `rematch` frame).
els.gameOver.querySelector("[data-rematch-form]")?.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = /** @type {HTMLFormElement} */ (event.currentTarget);
  find(/** @type {HTMLElement} */ (form), "[data-rematch]").setAttribute("disabled", "");
  fetch(form.action, { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } })
    .then((response) => response.json())
    .then((answer) => {
      if (answer.ok && answer.url) {
        goToRematch(answer.url);
        return;
      }
      if (answer.ok) {
        dispatch({ type: "rematch_asked", seats: answer.seats || [], waiting: answer.waiting || [] });
        return;
      }
      toast(answer.message || gettext("Something went wrong."));
      render(state);
    })
    .catch(() => {
      toast(gettext("Not connected: try again."));
      render(state);
    });
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && state.selected) dispatch({ type: "unselect" });
});

let resizeFrame = 0;
new ResizeObserver(() => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => renderLine(state));
}).observe(els.board);

setInterval(tickClocks, 1000);
