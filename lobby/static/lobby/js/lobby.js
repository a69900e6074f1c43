// The ranked page: join or leave a mode's queue over /ws/lobby/, follow the
// counters, and go to the table when matched.
import { openLobby, showCounts, showInvitation } from "./lobby_socket.js";

const root = document.querySelector("[data-lobby]");
let queued = root.dataset.queuedMode || "";
let since = queued ? Date.now() : null;
// "Back to the queue" from a finished ranked table: /ranked/?queue=<mode> joins it once.
let wanted = new URLSearchParams(window.location.search).get("queue");

function show(status, text) {
  root.querySelectorAll("[data-status]").forEach((el) => { el.hidden = el.dataset.status !== status; });
  if (text !== undefined) root.querySelector(`[data-status="${status}"]`).textContent = text;
  root.dataset.state = status;
}

function markQueued() {
  root.querySelectorAll("[data-mode]").forEach((card) => {
    const mine = card.dataset.mode === queued;
    card.toggleAttribute("data-queued", mine);
    card.querySelector("[data-queue]").hidden = Boolean(queued);
    card.querySelector("[data-leave]").hidden = !mine;
  });
}

const lobby = openLobby({
  onOpen() {
    if (!queued && wanted && root.querySelector(`[data-queue="${CSS.escape(wanted)}"]`)) {
      queued = wanted; since = Date.now();
      window.history.replaceState(null, "", window.location.pathname);
      wanted = null;
    }
    if (queued) lobby.send({ type: "queue", mode: queued });
    show(queued ? "searching" : "idle");
  },
  onClose() { show("offline"); },
  onFrame(frame) {
    if (frame.type === "counts") showCounts(root, frame);
    else if (frame.type === "invited") showInvitation(root, frame);
    else if (frame.type === "queued") {
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
      else show("error", frame.message || frame.code);
    }
  },
});

root.addEventListener("click", (event) => {
  const join = event.target.closest("[data-queue]");
  if (join) {
    queued = join.dataset.queue; since = Date.now();
    lobby.send({ type: "queue", mode: queued });
    return;
  }
  if (event.target.closest("[data-leave]")) {
    lobby.send({ type: "leave" });
  }
});

setInterval(() => {
  const el = root.querySelector("[data-waited]");
  if (el) el.textContent = queued && since ? `${Math.floor((Date.now() - since) / 1000)} s` : "";
}, 1000);

markQueued();
