// The queue panel of the ranked page and of a room page (the include
// lobby/_queue_panel.html): join or leave a mode's queue over /ws/lobby/,
// show where the search stands (`data-state` on the root, one visible
// `data-status` line, the time waited), mark the queued mode's card, and go
// to the table when matched (docs/members.md, "The lobby socket").
import { openLobby } from "./lobby_socket.js";

/** @typedef {import("../../js/socket.js").Frame} Frame */
/** @typedef {import("../../js/socket.js").LiveSocket} LiveSocket */

/**
 * @typedef {object} QueuePanelOptions
 * @property {(mode: string) => Frame} queueFrame the `queue` frame to send for a mode (a room's adds `room`)
 * @property {() => string | null} [onOpen] called when the socket opens, before the queued mode is sent
 *   again; it may return a mode to queue for now (or nothing)
 * @property {(frame: Frame) => void} [onFrame] the frames the panel does not handle itself (counts, invited)
 */

/**
 * Open the lobby socket for the queue panel inside `root`.
 * @param {HTMLElement} root
 * @param {QueuePanelOptions} options
 * @returns {LiveSocket}
 */
export function openQueuePanel(root, { queueFrame, onOpen = () => null, onFrame = () => {} }) {
  let queued = root.dataset.queuedMode || "";
  /** @type {number | null} */
  let since = queued ? Date.now() : null;

  /**
   * @param {string} status
   * @param {string} [text]
   */
  function show(status, text) {
    root.querySelectorAll("[data-status]").forEach((el) => {
      if (el instanceof HTMLElement) el.hidden = el.dataset.status !== status;
    });
    const line = root.querySelector(`[data-status="${status}"]`);
    if (text !== undefined && line) line.textContent = text;
    root.dataset.state = status;
  }

  function markQueued() {
    root.querySelectorAll("[data-mode]").forEach((card) => {
      if (!(card instanceof HTMLElement)) return;
      const mine = card.dataset.mode === queued;
      card.toggleAttribute("data-queued", mine);
      /** @type {HTMLElement | null} */
      const join = card.querySelector("[data-queue]");
      /** @type {HTMLElement | null} */
      const leave = card.querySelector("[data-leave]");
      if (join) join.hidden = Boolean(queued);
      if (leave) leave.hidden = !mine;
    });
  }

  const lobby = openLobby({
    onOpen() {
      const wanted = queued ? null : onOpen();
      if (wanted) { queued = wanted; since = Date.now(); }
      if (queued) lobby.send(queueFrame(queued));
      show(queued ? "searching" : "idle");
    },
    onClose() { show("offline"); },
    onFrame(frame) {
      if (frame.type === "queued") {
        queued = frame.mode; since = since || Date.now();
        show("searching"); markQueued();
      } else if (frame.type === "left") {
        queued = ""; since = null;
        show("idle"); markQueued();
      } else if (frame.type === "matched") {
        queued = ""; show("matched");
        window.location.assign(frame.url);
      } else if (frame.type === "error") {
        if (frame.code === "login_required") window.location.assign(`/accounts/login/?next=${location.pathname}`);
        else if (frame.code === "in_game" && frame.url) window.location.assign(frame.url);
        else {
          // Refused: not in any queue (queue_ban says why and until when, docs/moderation.md).
          if (frame.code === "queue_ban") { queued = ""; since = null; markQueued(); }
          show("error", frame.message || frame.code);
        }
      } else {
        onFrame(frame);
      }
    },
  });

  root.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    /** @type {HTMLElement | null | undefined} */
    const join = target?.closest("[data-queue]");
    if (join) {
      queued = join.dataset.queue || ""; since = Date.now();
      lobby.send(queueFrame(queued));
      return;
    }
    if (target?.closest("[data-leave]")) {
      lobby.send({ type: "leave" });
    }
  });

  setInterval(() => {
    const el = root.querySelector("[data-waited]");
    if (el) el.textContent = queued && since ? `${Math.floor((Date.now() - since) / 1000)} s` : "";
  }, 1000);

  markQueued();
  return lobby;
}
