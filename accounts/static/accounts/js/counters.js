// The home page's live counters: "N online · M searching".
import { openLobby, showCounts } from "./lobby_socket.js";

const root = document.querySelector("[data-counters]");
if (root) {
  openLobby({
    onFrame(frame) {
      if (frame.type === "counts") {
        showCounts(root, frame);
        root.dataset.ready = "";
      }
    },
  });
}
