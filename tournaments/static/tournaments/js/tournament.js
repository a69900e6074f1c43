// The tournament page: the countdown, the standings pushed as games end on
// /ws/tournament/<id>/ (a `standings` frame; the page polls the standings
// fragment slowly only while that socket is down), and the player's next
// table, announced on /ws/lobby/ as a `matched` frame with this tournament's
// id, opened at once (docs/tournaments.md).
import { openLobby } from "../../lobby/js/lobby_socket.js";
import { nextTable } from "./follow.js";
import { openSocket } from "../../js/socket.js";
import { pollFragment, refreshFragment } from "../../js/poller.js";

/** @typedef {import("../../js/socket.js").Frame} Frame */
/** @typedef {{rank: number, player: string, score: number, games: number, fire: boolean}} Row */

/**
 * One row of the standings, as tournaments/_standing_row.html draws it.
 * @param {Row} row
 * @param {number | null} mine the viewer's rank
 * @returns {HTMLTableRowElement}
 */
function standingRow(row, mine) {
  const tr = document.createElement("tr");
  tr.setAttribute("data-standing", "");
  tr.dataset.player = row.player;
  tr.dataset.rank = String(row.rank);
  tr.dataset.score = String(row.score);
  if (row.rank === mine) tr.className = "mine";
  for (const text of [String(row.rank), row.fire ? `${row.player} 🔥` : row.player, String(row.score), String(row.games)]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  return tr;
}

/**
 * Show a `standings` frame in the panel; false when the panel has no table
 * to fill yet (the first player joined: the caller fetches the fragment).
 * @param {Element} panel
 * @param {Frame} frame
 * @returns {boolean}
 */
export function showStandings(panel, frame) {
  const body = panel.querySelector("[data-standings-rows]");
  if (!body) return frame.top.length === 0;
  /** @type {Row[]} */
  const top = frame.top;
  /** @type {Row[]} */
  const around = frame.around;
  const mine = typeof frame.me === "number" ? frame.me : null;
  const rows = top.map((row) => standingRow(row, mine));
  if (around.length) {
    const gap = document.createElement("tr");
    gap.setAttribute("aria-hidden", "true");
    const td = document.createElement("td");
    td.colSpan = 4;
    td.textContent = "…";
    gap.append(td);
    if (around[0].rank > top.length + 1) rows.push(gap);
    rows.push(...around.map((row) => standingRow(row, mine)));
  }
  body.replaceChildren(...rows);
  /** @type {HTMLElement | null} */
  const line = panel.querySelector("[data-my-rank]");
  const own = [...top, ...around].find((row) => row.rank === mine);
  if (line && mine !== null && own) {
    line.dataset.myRank = String(mine);
    const text = line.querySelector("[data-my-rank-line]");
    const template = line.dataset.myRankText || "";
    if (text) text.textContent = template.replace("{rank}", String(mine)).replace("{score}", String(own.score));
    /** @type {HTMLElement | null} */
    const fire = line.querySelector("[data-my-fire]");
    if (fire) fire.hidden = !own.fire;
  }
  return true;
}

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-tournament-page]");
const REFRESH_MS = 10000;
// The standings' fallback: polled only while their socket is down.
const FALLBACK_MS = 30000;

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
   * Replace `target`'s content with the server's HTML fragment at `url` once
   * (offline for a moment: the next frame or poll tries again).
   * @param {Element} target
   * @param {string} url
   */
  const refresh = (target, url) => {
    refreshFragment(target, url).catch(() => {});
  };
  const panel = root.querySelector("[data-standings-panel]");
  const url = root.dataset.standingsUrl;
  // The players' chat (its lines drawn by the server, escaped: text only).
  /** @type {HTMLElement | null} */
  const chat = root.querySelector("[data-chat-url]");
  const chatLines = chat?.querySelector("[data-chat-lines]");
  if (root.dataset.status !== "finished") {
    let live = false;
    const path = root.dataset.standingsSocket;
    if (path) {
      openSocket(path, {
        onOpen: () => { live = true; },
        onDrop: () => { live = false; },
        onRefused: () => { live = false; },
        onFrame(frame) {
          if (frame.type !== "standings" || frame.tournament !== id) return;
          // The end: the page shows the podium and the final standings.
          if (frame.status !== root.dataset.status && frame.status === "finished") window.location.reload();
          if (panel && !showStandings(panel, frame) && url) refresh(panel, url);
        },
      });
    }
    // Both through the pages' poller (static/js/poller.js): one request at a time.
    if (chat && chatLines && chat.dataset.chatUrl) pollFragment(chatLines, chat.dataset.chatUrl, { every: REFRESH_MS });
    if (panel && url) pollFragment(panel, url, { every: FALLBACK_MS, when: () => !live });
  }

  openLobby({
    onFrame(frame) {
      const next = nextTable(frame, id, window.location.pathname);
      if (next) window.location.assign(next);
    },
  });
}
