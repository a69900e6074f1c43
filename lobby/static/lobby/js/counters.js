// The home page's live counters: "N online · M searching".
import { openLobby, showCounts, showInvitation } from "./lobby_socket.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-counters]");
if (root) {
  openLobby({
    onFrame(frame) {
      if (frame.type === "counts") {
        showCounts(root, frame);
        root.dataset.ready = "";
      } else if (frame.type === "invited") {
        showInvitation(root, frame);
      }
    },
  });
}
