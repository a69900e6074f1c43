// Shared state of the table page: the config from the server, the page's
// elements, what the latest frames said, and small helpers over them.
import { format, gettext } from "./table_texts.js";

export const config = JSON.parse(document.getElementById("table-config").textContent);
// A member's preferences (their settings page, /account/settings/); null for a
// guest, whose switches are remembered by this browser.
const preferences = config.preferences || null;
const MEMBER_SETTINGS = {
  "mute-sounds": (prefs) => !prefs.sounds,
  confirm: (prefs) => prefs.confirm,
  "mute-reactions": (prefs) => prefs.muteReactions,
  "tile-numbers": (prefs) => prefs.tileFaces === "numbers",
};
export const $ = (id) => document.getElementById(id);
export const els = {
  table: $("table"), status: $("table-status"), round: $("round-label"), boneyard: $("boneyard"),
  target: $("target-label"), spectators: $("spectators"), teamScores: $("team-scores"),
  players: $("players"), board: $("board"), line: $("line"), empty: $("board-empty"), ends: $("ends-label"),
  me: $("me"), mePlayer: $("me-player"), hand: $("hand"), hint: $("hand-hint"),
  draw: document.querySelector('[data-action="draw"]'), pass: document.querySelector('[data-action="pass"]'),
  resign: document.querySelector('[data-action="resign"]'), claim: $("claim-win"),
  roundOver: $("round-over"), gameOver: $("game-over"), connection: $("connection"),
  announcer: $("announcer"), toasts: $("toasts"), commitment: $("commitment"),
  commitmentShort: $("commitment-short"), fairness: $("fairness"),
  reactions: $("reactions"), reactionButtons: $("reaction-buttons"),
  chainRow: $("chain-row"), chainSeq: $("chain-seq"), chainHead: $("chain-head"),
};

export const app = {
  seat: config.seat ?? null,
  players: config.players || [],
  table: null,
  chain: null, // {seq, head}: the move log's chain after event seq (every `state` frame)
  clock: null, // the turn timer of tables with people (a `clock` frame), or null
  seq: 0,
  view: null,
  legal: [],
  selected: null, // key "a-b" of a tile that fits both ends (or any, with confirm), waiting for an end
  preview: null, // key of the tile under the pointer or the focus: its destination glows
  confirm: readSetting("confirm"), // "confirm each move": tap to select, tap the glowing end to place
  pending: false, // a move was sent; wait for the server's answer
  fresh: null, // key of the tile just laid, drawn with a short animation
  freshSeat: null, // the seat that laid it (another player's tile slides in from their card)
  freshDraw: null, // key of the tile just drawn into the hand
  roundFrame: null,
  gameFrame: null,
  rematch: config.rematch || null, // {seats: asked, waiting, url}: a rematch asked for after the game
  bubbles: {}, // seat -> {id, until}: a quick reaction shown on that player's card
  muteReactions: readSetting("mute-reactions"),
  ratings: null, // rating changes after a ranked game ([{seat, before, after, delta, provisional}])
  ratingsAsked: false,
  seatRatings: {}, // seat -> {rating, provisional}: at a ranked table, shown next to the name
  nextRoundSent: false,
  panelCollapsed: false,
  socket: null,
  connectedOnce: false,
  attempts: 0,
  reconnectTimer: null,
  drag: null,
  suppressClick: false,
};

/** A switch of the table: a member's preference, else remembered by this
 * browser ("1" / "0" in localStorage). */
export function readSetting(name) {
  if (preferences && name in MEMBER_SETTINGS) return Boolean(MEMBER_SETTINGS[name](preferences));
  try {
    return window.localStorage.getItem(`dominoes.${name}`) === "1";
  } catch {
    return false;
  }
}

export function saveSetting(name, on) {
  if (preferences && name in MEMBER_SETTINGS) {
    saveMemberSetting(name, on);
    return;
  }
  try {
    window.localStorage.setItem(`dominoes.${name}`, on ? "1" : "0");
  } catch {
    // private browsing: the setting lasts for this page only
  }
}

/** A member's switch, saved as their preference (a failure leaves it for this page). */
function saveMemberSetting(name, on) {
  const token = document.querySelector("[name=csrfmiddlewaretoken]")?.value || "";
  const body = new URLSearchParams({ preference: name, value: on ? "1" : "0" });
  fetch(preferences.saveUrl, {
    method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": token, Accept: "application/json" },
  }).catch(() => {});
}

/** Zen mode (a member's preference): no ratings while the game is played. */
export const ratingsHidden = () => Boolean(preferences && preferences.zen && !(app.view && app.view.game_over) && !app.gameFrame);

/** How many ends a tile must fit to wait for a chosen end (else one tap plays it). */
export const endsToChoose = () => (app.confirm ? 1 : 2);

export const keyOf = ([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`;
export const isMe = (seat) => app.seat !== null && seat === app.seat;
export const myTurn = () => Boolean(app.view && app.seat !== null && app.view.to_move === app.seat && app.legal.length);

export function playerInfo(seat) {
  return app.players.find((player) => player.seat === seat) || { seat, name: "", kind: "human" };
}

export function nameOf(seat) {
  if (isMe(seat)) return gettext("You");
  const info = playerInfo(seat);
  return info.name || format(gettext("Player %(number)s"), { number: seat + 1 });
}

export function pairNames(team) {
  return { first: nameOf(team), second: nameOf(team + 2) };
}

export function teamName(team) {
  if (app.seat !== null) return app.seat % 2 === team ? gettext("Your pair") : gettext("The opponents");
  return format(gettext("%(first)s and %(second)s"), pairNames(team));
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

export function legalEnds(key) {
  return app.legal.filter((action) => action.type === "play" && keyOf(action.tile) === key).map((action) => action.end);
}

