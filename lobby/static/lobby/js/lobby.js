// The ranked page: join or leave a mode's queue over /ws/lobby/, follow the
// counters, and go to the table when matched (the queue panel: queue_panel.js).
import { showCounts, showInvitation } from "./lobby_socket.js";
import { openQueuePanel } from "./queue_panel.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-lobby]");
// "Back to the queue" from a finished ranked table: /ranked/?queue=<mode> joins it once.
let wanted = new URLSearchParams(window.location.search).get("queue");

if (root) {
  openQueuePanel(root, {
    queueFrame: (mode) => ({ type: "queue", mode }),
    onOpen() {
      if (!wanted || !root.querySelector(`[data-queue="${CSS.escape(wanted)}"]`)) return null;
      const mode = wanted;
      window.history.replaceState(null, "", window.location.pathname);
      wanted = null;
      return mode;
    },
    onFrame(frame) {
      if (frame.type === "counts") showCounts(root, frame);
      else if (frame.type === "invited") showInvitation(root, frame);
    },
  });
}
