// A tournament table's page, for its players: when the game ends and the
// tournament pairs them again, the lobby socket announces the next table and
// the page goes there (after a moment to read the result), as the tournament
// page does: one game after another without going back to a menu.
import { openLobby } from "../../lobby/js/lobby_socket.js";
import { nextTable } from "./follow.js";

const FOLLOW_AFTER_MS = 3000;

/** @type {HTMLElement | null} */
const panel = document.querySelector("[data-follow-tournament]");
if (panel) {
  const id = Number(panel.dataset.followTournament);
  /** @type {HTMLElement | null} */
  const next = panel.querySelector("[data-next-table]");
  openLobby({
    onFrame(frame) {
      const url = nextTable(frame, id, window.location.pathname);
      if (!url) return;
      if (next) {
        const link = next.querySelector("a");
        if (link) link.href = url;
        next.hidden = false;
      }
      window.setTimeout(() => window.location.assign(url), FOLLOW_AFTER_MS);
    },
  });
}
