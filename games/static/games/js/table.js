// The live table page: draws what the server sends over /ws/table/<id>/
// (docs/protocol.md) and sends the player's moves. The server is the
// only authority: nothing here decides what is legal, it only shows the
// `legal` list of the latest `state` frame.
import {
  announce, gameResultText, render, renderLine, roundResultText, setConnection, tickClocks, toast,
} from "./table_render.js";
import {
  app, config, el, els, endsToChoose, isMe, keyOf, legalEnds, myTurn, nameOf, readSetting, saveSetting,
} from "./table_state.js";
import { setTileFaces } from "../../js/tiles.js";
import { errorText, eventText, gettext, reactionText } from "./table_texts.js";
import { hintAnswered, hintRefused, renderHint, setupHint } from "./table_hint.js";
import { playSound, setupSound } from "./table_sound.js";

// ---------------------------------------------------------------- socket

function send(frame) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) {
    toast(gettext("Not connected: your move was not sent."));
    return false;
  }
  app.socket.send(JSON.stringify(frame));
  return true;
}

function sendAction(frame) {
  if (app.pending) return;
  app.selected = null;
  if (send({ ...frame, seq: app.seq })) app.pending = true;
  render();
}

function play(key, end) {
  const action = app.legal.find((item) => item.type === "play" && keyOf(item.tile) === key && item.end === end);
  if (action) sendAction({ type: "play", tile: action.tile, end });
}

function onState(frame) {
  const before = app.view;
  app.seq = frame.seq ?? app.seq;
  app.view = frame.view || null; // null: the table still waits for its players
  app.legal = frame.legal || [];
  if (frame.chain) app.chain = { seq: app.seq, head: frame.chain };
  if (frame.table) {
    app.table = frame.table;
    if (frame.table.players) app.players = frame.table.players;
    if ("clock" in frame.table) app.clock = frame.table.clock; // the turn timer (games.clock)
  }
  app.pending = false;
  if (app.selected && legalEnds(app.selected).length < endsToChoose()) app.selected = null;
  if (app.preview && !legalEnds(app.preview).length) app.preview = null;
  if (!app.view || !app.view.round_over) {
    app.roundFrame = null;
    app.nextRoundSent = false;
  }
  if (!app.view || !app.view.game_over) app.gameFrame = null;
  fetchRatings();
  const turnStarted = myTurn() && !(before && before.to_move === app.seat && before.round === app.view.round);
  render();
  renderHint();
  if (turnStarted) {
    announce(gettext("Your turn."));
    playSound("turn");
  }
  app.fresh = null;
  app.freshSeat = null;
  app.freshDraw = null;
}

/** At a ranked table, once: the players' ratings (shown next to their names)
 * and, for a game already over when the page opened, its rating changes (the
 * `ratings` frame went to the sockets open at the end). */
function fetchRatings() {
  const url = els.gameOver.querySelector("[data-ratings-url]")?.dataset.ratingsUrl;
  if (!url || app.ratingsAsked) return;
  app.ratingsAsked = true;
  fetch(url, { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((data) => {
      if (!data) return;
      app.seatRatings = Object.fromEntries((data.current || []).map((item) => [item.seat, item]));
      if (data.changes && data.changes.length && !app.ratings) app.ratings = data.changes;
      render();
    })
    .catch(() => {});
}

/** A quick reaction: a bubble on the player's card for a few seconds (others' muted on request). */
function onReaction(frame) {
  const text = reactionText(frame.id);
  if (!text || (app.muteReactions && !isMe(frame.seat))) return;
  app.bubbles[frame.seat] = { id: frame.id, until: Date.now() + 4000 };
  announce(`${nameOf(frame.seat)}: ${text}`);
  render();
  setTimeout(render, 4100);
}

function onEvent(frame) {
  if (frame.action === "play") {
    app.fresh = keyOf(frame.tile);
    app.freshSeat = frame.seat;
    playSound("move");
  }
  if (frame.action === "draw" && isMe(frame.seat) && frame.tile) app.freshDraw = keyOf(frame.tile);
  if (["play", "draw", "pass"].includes(frame.action)) announce(eventText(nameOf(frame.seat), isMe(frame.seat), frame));
}

function onMessage(frame) {
  switch (frame.type) {
    case "state":
      onState(frame);
      break;
    case "event":
      if (app.view && typeof frame.seq === "number" && frame.seq <= app.seq) break; // seen before a sync
      app.seq = frame.seq ?? app.seq;
      onEvent(frame);
      break;
    case "round_over":
      app.seq = Math.max(app.seq, frame.seq ?? 0);
      app.roundFrame = frame;
      announce(roundResultText(frame.result));
      render();
      break;
    case "game_over":
      app.seq = Math.max(app.seq, frame.seq ?? 0);
      app.gameFrame = frame;
      announce(`${gettext("Game over.")} ${gameResultText(frame.winner)}`);
      render();
      break;
    case "clock":
      app.clock = frame.clock || null;
      render();
      break;
    case "spectators":
      app.table = { ...(app.table || {}), spectators: frame.count };
      render();
      break;
    case "hint":
      hintAnswered(frame);
      break;
    case "rematch":
      app.rematch = frame;
      // Everyone asked: those who asked go to the new table together.
      if (frame.url && app.seat !== null && (frame.seats || []).includes(app.seat)) goToRematch(frame.url);
      else render();
      break;
    case "reaction":
      onReaction(frame);
      break;
    case "ratings":
      app.ratings = frame.changes || [];
      for (const change of app.ratings) {
        app.seatRatings[change.seat] = { seat: change.seat, rating: change.after, provisional: change.provisional };
      }
      render();
      break;
    case "error":
      hintRefused();
      app.pending = false;
      toast(errorText(frame.code, frame.message));
      if (frame.code === "stale") send({ type: "sync", seq: app.seq });
      render();
      break;
    default:
      break;
  }
}

function connect() {
  clearTimeout(app.reconnectTimer);
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}${config.wsPath}`);
  app.socket = socket;
  setConnection(app.connectedOnce ? "reconnecting" : "connecting");
  socket.addEventListener("open", () => {
    app.attempts = 0;
    setConnection("open");
    // The server sends a state on connect; after a drop, also ask for the
    // events missed since the last one seen.
    if (app.connectedOnce) socket.send(JSON.stringify({ type: "sync", seq: app.seq }));
    app.connectedOnce = true;
  });
  socket.addEventListener("message", (message) => {
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object") return;
    onMessage(frame);
    // The panels that other apps add to the page (games.signals.table_page_panels)
    // follow the frames too, the notices this page does not show itself included.
    document.dispatchEvent(new CustomEvent("table-frame", { detail: frame }));
  });
  socket.addEventListener("close", (close) => {
    if (app.socket !== socket) return;
    app.socket = null;
    app.pending = false;
    // 4xxx: the server refused this page (no such table, not allowed): stop.
    if (close.code >= 4000 && close.code < 5000) {
      setConnection("closed");
      if (close.reason) toast(close.reason);
      return;
    }
    setConnection("reconnecting");
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  const delay = Math.min(10000, 500 * 2 ** app.attempts) * (0.75 + Math.random() * 0.5);
  app.attempts += 1;
  clearTimeout(app.reconnectTimer);
  app.reconnectTimer = setTimeout(connect, delay);
}

window.addEventListener("online", () => {
  if (!app.socket) connect();
});

// ---------------------------------------------------------------- input

function onHandClick(event) {
  const button = event.target.closest("[data-tile]");
  if (!button || app.suppressClick) return;
  const key = button.dataset.tile;
  const ends = [...new Set(legalEnds(key))];
  if (!ends.length) {
    if (myTurn()) toast(gettext("This tile does not fit: choose another."));
    return;
  }
  if (ends.length < endsToChoose()) {
    play(key, ends[0]);
    return;
  }
  app.selected = app.selected === key ? null : key;
  render();
  if (!app.selected) return;
  announce(ends.length > 1 ? gettext("It fits both ends: choose the left or the right end.")
    : gettext("Tap the glowing end to place it."));
  // From the keyboard (no pointer position), go on to the ends.
  if (event.detail === 0) els.line.querySelector("[data-end]")?.focus();
}

function onLineClick(event) {
  const spot = event.target.closest("[data-end]");
  const key = app.selected;
  if (spot && key) play(key, spot.dataset.end);
}

function slotAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const spot = hit && hit.closest("[data-end]");
  if (spot) return spot;
  // Forgiving drop: the nearest glowing end within a tile's length.
  let best = null;
  let bestDistance = Infinity;
  for (const candidate of els.line.querySelectorAll("[data-end]")) {
    const box = candidate.getBoundingClientRect();
    const distance = Math.hypot(x - (box.left + box.width / 2), y - (box.top + box.height / 2));
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best && bestDistance < 80 ? best : null;
}

function onPointerDown(event) {
  const button = event.target.closest("[data-tile][data-playable]");
  if (!button || event.button > 0 || app.pending) return;
  app.drag = { key: button.dataset.tile, x: event.clientX, y: event.clientY, moved: false, ghost: null, button };
  try {
    button.setPointerCapture(event.pointerId);
  } catch {
    // a pointer already gone (or a synthetic event): the drag still follows the hand's events
  }
}

function onPointerMove(event) {
  const drag = app.drag;
  if (!drag) return;
  if (!drag.moved) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
    drag.moved = true;
    drag.ghost = el("div", { class: "drag-ghost", "aria-hidden": "true" }, drag.button.firstElementChild.cloneNode(true));
    document.body.append(drag.ghost);
    drag.button.classList.add("is-dragging");
    renderLine();
  }
  drag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px)`;
  const over = slotAt(event.clientX, event.clientY);
  for (const spot of els.line.querySelectorAll("[data-end]")) spot.classList.toggle("is-over", spot === over);
}

function endDrag(event, drop) {
  const drag = app.drag;
  if (!drag) return;
  app.drag = null;
  if (!drag.moved) return;
  drag.ghost.remove();
  drag.button.classList.remove("is-dragging");
  app.suppressClick = true;
  setTimeout(() => { app.suppressClick = false; }, 0);
  const spot = drop ? slotAt(event.clientX, event.clientY) : null;
  if (spot) play(drag.key, spot.dataset.end);
  else renderLine();
}

// While a finger or the mouse is on a playable tile (or the keyboard focus),
// where it would go glows on the line.
function setPreview(key) {
  if (app.preview === key) return;
  app.preview = key;
  // Not while a tile is chosen or dragged: its ends glow already (and redrawing
  // the line would take the keyboard focus off them).
  if (!app.selected && !(app.drag && app.drag.moved)) renderLine();
}
const previewKey = (event) => {
  const tile = event.target.closest && event.target.closest("[data-tile][data-playable]");
  return tile && myTurn() ? tile.dataset.tile : null;
};
els.hand.addEventListener("pointerover", (event) => {
  if (event.pointerType === "mouse") setPreview(previewKey(event));
});
els.hand.addEventListener("pointerout", (event) => {
  if (event.pointerType === "mouse" && !els.hand.contains(event.relatedTarget)) setPreview(null);
});
els.hand.addEventListener("pointerdown", (event) => setPreview(previewKey(event)), true);
els.hand.addEventListener("pointerup", (event) => {
  if (event.pointerType !== "mouse") setPreview(null);
});
els.hand.addEventListener("focusin", (event) => setPreview(previewKey(event)));
els.hand.addEventListener("focusout", (event) => {
  if (!els.hand.contains(event.relatedTarget)) setPreview(null);
});

els.reactionButtons.addEventListener("click", (event) => {
  const button = event.target.closest("[data-react]");
  if (!button || !send({ type: "react", id: button.dataset.react })) return;
  // The server takes one every few seconds: rest the buttons meanwhile.
  const buttons = [...els.reactionButtons.querySelectorAll("[data-react]")];
  buttons.forEach((item) => { item.disabled = true; });
  setTimeout(() => buttons.forEach((item) => { item.disabled = false; }), 3000);
});
const muteBox = document.querySelector('[data-setting="mute-reactions"]');
if (muteBox) {
  muteBox.checked = app.muteReactions;
  muteBox.addEventListener("change", () => {
    app.muteReactions = muteBox.checked;
    saveSetting("mute-reactions", app.muteReactions);
    if (app.muteReactions) app.bubbles = Object.fromEntries(Object.entries(app.bubbles).filter(([seat]) => isMe(Number(seat))));
    render();
  });
}

const confirmBox = document.querySelector('[data-setting="confirm"]');
if (confirmBox) {
  confirmBox.checked = app.confirm;
  confirmBox.addEventListener("change", () => {
    app.confirm = confirmBox.checked;
    saveSetting("confirm", app.confirm);
    app.selected = null;
    render();
  });
}

// Tile faces: pips or numbers (a member's preference, a guest's browser).
setTileFaces(readSetting("tile-numbers") ? "numbers" : "pips");
const facesBox = document.querySelector('[data-setting="tile-numbers"]');
if (facesBox) {
  facesBox.checked = readSetting("tile-numbers");
  facesBox.addEventListener("change", () => {
    setTileFaces(facesBox.checked ? "numbers" : "pips");
    saveSetting("tile-numbers", facesBox.checked);
    render();
  });
}

els.hand.addEventListener("click", onHandClick);
els.hand.addEventListener("pointerdown", onPointerDown);
els.hand.addEventListener("pointermove", onPointerMove);
els.hand.addEventListener("pointerup", (event) => endDrag(event, true));
els.hand.addEventListener("pointercancel", (event) => endDrag(event, false));
els.line.addEventListener("click", onLineClick);
setupHint(send);
setupSound();
els.draw.addEventListener("click", () => sendAction({ type: "draw" }));
els.pass.addEventListener("click", () => sendAction({ type: "pass" }));
els.roundOver.querySelector('[data-action="next_round"]').addEventListener("click", () => {
  if (send({ type: "next_round", seq: app.seq })) {
    app.nextRoundSent = true;
    render();
  }
});
els.resign.addEventListener("click", () => {
  if (window.confirm(gettext("Resign this game? It ends now and counts as lost."))) send({ type: "resign", seq: app.seq });
});
els.gameOver.querySelector('[data-action="toggle-panel"]').addEventListener("click", () => {
  app.panelCollapsed = !app.panelCollapsed;
  render();
});
// The new table comes both as the POST's answer and as a `rematch` frame:
// go there once (a second navigation would abort the first).
let leavingTo = null;
function goToRematch(url) {
  if (leavingTo) return;
  leavingTo = url;
  window.location.assign(url);
}

// Rematch without leaving the page: the server answers with the new table,
// or with who is still awaited (the others see a `rematch` frame).
els.gameOver.querySelector("[data-rematch-form]")?.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  form.querySelector("[data-rematch]").disabled = true;
  fetch(form.action, { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } })
    .then((response) => response.json())
    .then((answer) => {
      if (answer.ok && answer.url) {
        goToRematch(answer.url);
        return;
      }
      if (answer.ok) app.rematch = { seats: answer.seats, waiting: answer.waiting, url: null };
      else toast(answer.message || gettext("Something went wrong."));
      render();
    })
    .catch(() => {
      toast(gettext("Not connected: try again."));
      render();
    });
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && app.selected) {
    app.selected = null;
    render();
  }
});

let resizeFrame = 0;
new ResizeObserver(() => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(renderLine);
}).observe(els.board);

setInterval(tickClocks, 1000);
connect();
