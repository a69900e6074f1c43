// The table's chat panel: the lines of the viewer's room (table_reduce.js keeps
// them), drawn as text only (textContent: markup shows as typed, a link is
// not clickable), a mute button and a report link on another member's line,
// and the form that sends `{"type": "chat", "text": ...}`. The server decides
// the room (a seat writes the players' chat, a watcher the spectators').
import { gettext } from "./table_texts.js";

/** @typedef {import("./table_reduce.js").TableState} TableState */

/**
 * The chat panel's elements, or null on a page without it.
 * @returns {{panel: HTMLElement, lines: HTMLElement, form: HTMLFormElement | null, input: HTMLInputElement | null} | null}
 */
export function chatElements() {
  const panel = document.getElementById("chat");
  const lines = document.getElementById("chat-lines");
  if (!panel || !lines) return null;
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById("chat-form"));
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-text"));
  return { panel, lines, form, input };
}

/**
 * A member's report page for a chat line (their profile's report form).
 * @param {string} pattern the profile URL with "USERNAME" in it
 * @param {string} username
 * @param {number} id
 */
export function reportUrl(pattern, username, id) {
  return `${pattern.replace("USERNAME", encodeURIComponent(username))}?report_line=${id}#report`;
}

/**
 * A member's report page from their name at the table (the table attached).
 * @param {string} pattern the profile URL with "USERNAME" in it
 * @param {string} username
 * @param {number} tableId
 */
export function reportPlayerUrl(pattern, username, tableId) {
  return `${pattern.replace("USERNAME", encodeURIComponent(username))}?report_table=${tableId}#report`;
}

/**
 * The mark after a bot account's name (as on its profile): a program plays it.
 * @returns {HTMLSpanElement}
 */
export function botMark() {
  const mark = document.createElement("span");
  mark.className = "badge badge--bot";
  mark.dataset.bot = "";
  mark.title = gettext("A program playing through the API");
  mark.textContent = gettext("Bot");
  return mark;
}

/**
 * Draw the lines of `state.chat` (all of them: a hundred at most).
 * @param {TableState} state
 * @param {string} me the viewer's username, "" for a guest
 */
export function renderChat(state, me) {
  const found = chatElements();
  if (!found) return;
  const { panel, lines } = found;
  const pattern = panel.dataset.profileUrl || "";
  const atBottom = lines.scrollHeight - lines.scrollTop - lines.clientHeight < 8;
  const items = state.chat.map((line) => {
    const item = document.createElement("li");
    item.className = "chat-line";
    item.dataset.chatId = String(line.id);
    const name = document.createElement("span");
    name.className = "chat-from";
    name.textContent = line.from;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text;
    if (line.bot) name.append(" ", botMark());
    item.append(name, " ", text);
    if (me && line.from !== me) {
      const mute = document.createElement("button");
      mute.type = "button";
      mute.className = "link-button chat-mute";
      mute.dataset.chatMute = line.from;
      mute.textContent = gettext("Mute");
      const report = document.createElement("a");
      report.className = "chat-report";
      report.href = reportUrl(pattern, line.from, line.id);
      report.target = "_blank";
      report.rel = "noopener";
      report.textContent = gettext("Report");
      item.append(" ", mute, " ", report);
    }
    return item;
  });
  lines.replaceChildren(...items);
  if (atBottom) lines.scrollTop = lines.scrollHeight;
  const silent = state.chatOff || state.chatTableMuted;
  lines.hidden = silent;
  if (found.form) found.form.hidden = silent;
  const empty = document.getElementById("chat-empty");
  if (empty) empty.hidden = state.chat.length > 0 || silent;
  const off = document.getElementById("chat-off-note");
  if (off) off.hidden = !state.chatOff;
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-off"));
  if (box) box.checked = state.chatOff;
  const tableNote = document.getElementById("chat-table-muted-note");
  if (tableNote) tableNote.hidden = !state.chatTableMuted || state.chatOff;
  const tableBox = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-table-muted"));
  if (tableBox) tableBox.checked = state.chatTableMuted;
}

/**
 * Wire the form and the mute buttons.
 * @param {(frame: Record<string, unknown>) => boolean} send
 */
export function setupChat(send) {
  const found = chatElements();
  if (!found) return;
  const { lines, form, input } = found;
  lines.addEventListener("click", (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.dataset.chatMute) return;
    send({ type: "chat_mute", user: target.dataset.chatMute, mute: true });
  });
  // The switch of the whole chat: the server remembers it (a member's
  // preference) and delivers no line while it is off.
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-off"));
  if (box) box.addEventListener("change", () => {
    if (!send({ type: "chat_mute", all: true, mute: box.checked })) box.checked = !box.checked;
  });
  // This table's chat only (a member's): kept for this table, the others unchanged.
  const tableBox = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-table-muted"));
  if (tableBox) tableBox.addEventListener("change", () => {
    if (!send({ type: "chat_mute", table: true, mute: tableBox.checked })) tableBox.checked = !tableBox.checked;
  });
  if (!form || !input) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text && send({ type: "chat", text })) input.value = "";
  });
}
