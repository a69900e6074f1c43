// The lobby websocket (/ws/lobby/) of the home, ranked and room pages, on the
// site's socket helper (static/js/socket.js: reconnection with back-off and
// jitter), and what its frames show on any of them.
import { openSocket } from "../../js/socket.js";

/** @typedef {import("../../js/socket.js").Frame} Frame */
/** @typedef {import("../../js/socket.js").LiveSocket} LiveSocket */

/**
 * Open /ws/lobby/ and keep it open. Unlike the table, the lobby reconnects
 * after any close (its only 4xxx is a flood's, 4429, which passes).
 * @param {{onOpen?: () => void, onFrame?: (frame: Frame) => void, onClose?: () => void}} [handlers]
 * @returns {LiveSocket}
 */
export function openLobby({ onOpen = () => {}, onFrame = () => {}, onClose = () => {} } = {}) {
  return openSocket("/ws/lobby/", { onOpen: () => onOpen(), onFrame, onDrop: onClose, isFinal: () => false });
}

/**
 * The counters: "N online · M searching", and by mode.
 * @param {ParentNode} root
 * @param {Frame} frame a `counts` frame
 */
export function showCounts(root, frame) {
  /** @type {Record<string, number>} */
  const modes = frame.searching || {};
  const searching = Object.values(modes).reduce((a, b) => a + b, 0);
  root.querySelectorAll("[data-online]").forEach((el) => { el.textContent = String(frame.online); });
  root.querySelectorAll("[data-searching]").forEach((el) => { el.textContent = String(searching); });
  for (const [mode, count] of Object.entries(modes)) {
    root.querySelectorAll(`[data-searching-mode="${mode}"]`).forEach((el) => { el.textContent = String(count); });
  }
}

/**
 * A friend's invitation to a private table (an `invited` frame).
 * @param {ParentNode} root
 * @param {Frame} frame
 */
export function showInvitation(root, frame) {
  /** @type {HTMLElement | null} */
  const banner = root.querySelector("[data-invitation-banner]");
  if (!banner) return;
  const from = banner.querySelector("[data-from]");
  /** @type {HTMLAnchorElement | null} */
  const join = banner.querySelector("[data-join]");
  if (from) from.textContent = frame.from;
  if (join) join.href = frame.url;
  banner.hidden = false;
}
