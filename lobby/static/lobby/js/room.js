// A room page: join or leave the room's queue of a mode over /ws/lobby/
// ({"type": "queue", "room": ..., "mode": ...}), and go to the table when
// matched (the queue panel: queue_panel.js).
import { showInvitation } from "./lobby_socket.js";
import { openQueuePanel } from "./queue_panel.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-room-page]");

if (root) {
  const room = root.dataset.roomPage;
  openQueuePanel(root, {
    queueFrame: (mode) => ({ type: "queue", room, mode }),
    onFrame(frame) {
      if (frame.type === "invited") showInvitation(root, frame);
    },
  });
}
