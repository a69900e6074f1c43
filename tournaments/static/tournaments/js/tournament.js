// The tournament page: the countdown, the standings refreshed as games end,
// and the player's next table, announced on /ws/lobby/ as a `matched` frame
// with this tournament's id, opened at once (docs/tournaments.md).
import { openLobby } from "../../lobby/js/lobby_socket.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-tournament-page]");
const REFRESH_MS = 10000;

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

if (root) {
  const id = Number(root.dataset.tournamentPage);
  /** @type {HTMLElement | null} */
  const countdown = root.querySelector("[data-countdown]");
  const text = countdown?.querySelector("[data-countdown-text]");
  if (countdown && text) {
    const end = Date.now() + Number(countdown.dataset.countdown || 0) * 1000;
    const show = () => {
      const left = (end - Date.now()) / 1000;
      text.textContent = clock(left);
      // The start or the end has come: the page shows the new status.
      if (left <= -3) window.location.reload();
    };
    show();
    window.setInterval(show, 1000);
  }

  /**
   * Replace `target`'s content with the server's HTML fragment at `url`.
   * @param {Element} target
   * @param {string} url
   */
  const refresh = async (target, url) => {
    try {
      const response = await fetch(url, { headers: { Accept: "text/html" } });
      if (response.ok) target.innerHTML = await response.text();
    } catch {
      // Offline for a moment: the next refresh tries again.
    }
  };
  const panel = root.querySelector("[data-standings-panel]");
  const url = root.dataset.standingsUrl;
  // The players' chat (its lines drawn by the server, escaped: text only).
  /** @type {HTMLElement | null} */
  const chat = root.querySelector("[data-chat-url]");
  const chatLines = chat?.querySelector("[data-chat-lines]");
  if (root.dataset.status !== "finished") {
    window.setInterval(() => {
      if (panel && url) refresh(panel, url);
      if (chat && chatLines && chat.dataset.chatUrl) refresh(chatLines, chat.dataset.chatUrl);
    }, REFRESH_MS);
  }

  openLobby({
    onFrame(frame) {
      if (frame.type === "matched" && frame.tournament === id && typeof frame.url === "string") {
        window.location.assign(frame.url);
      }
    },
  });
}
