// The table page's elements and what it keeps in this browser: the config
// from the server, the elements it draws into (`els`), a small element
// builder, the remembered settings. The state itself is table_reduce.js's.

/** @typedef {import("./table_types.js").Config} Config */

/**
 * The element of `id`, which the table page's template always has.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the table page has no #${id}`);
  return node;
}

/**
 * The element of `selector` inside `root`, which the template always has.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {ParentNode} root
 * @param {string} selector
 * @returns {T}
 */
export function find(root, selector) {
  const node = root.querySelector(selector);
  if (!node) throw new Error(`the table page has no ${selector}`);
  return /** @type {T} */ (node);
}

/**
 * The closest element matching `selector` from an event's target.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {Event} event
 * @param {string} selector
 * @returns {T | null}
 */
export function closest(event, selector) {
  const target = event.target;
  return target instanceof Element ? /** @type {T | null} */ (target.closest(selector)) : null;
}

/** @type {Config} */
export const config = JSON.parse($("table-config").textContent || "{}");

export const els = {
  table: $("table"), status: $("table-status"), round: $("round-label"), boneyard: $("boneyard"),
  target: $("target-label"), spectators: $("spectators"), teamScores: $("team-scores"),
  players: $("players"), board: $("board"), line: $("line"), empty: $("board-empty"), ends: $("ends-label"),
  me: $("me"), mePlayer: $("me-player"), hand: $("hand"), hint: $("hand-hint"),
  draw: find(document, '[data-action="draw"]'), pass: find(document, '[data-action="pass"]'),
  resign: find(document, '[data-action="resign"]'), claim: $("claim-win"),
  roundOver: $("round-over"), gameOver: $("game-over"), connection: $("connection"),
  announcer: $("announcer"), toasts: $("toasts"), commitment: $("commitment"),
  commitmentShort: $("commitment-short"), fairness: $("fairness"),
  reactions: $("reactions"), reactionButtons: $("reaction-buttons"),
  chainRow: $("chain-row"), chainSeq: $("chain-seq"), chainHead: $("chain-head"),
};

/** @typedef {string | number | boolean | null | undefined} AttributeValue */

/**
 * A new element: `class`, `text` and attributes (false, null and undefined
 * left out, true as an empty attribute), then its children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attributes]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = String(value);
    else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(.../** @type {(Node | string)[]} */ (children.filter((child) => child !== null && child !== undefined)));
  return node;
}

/**
 * A member's preferences (their settings page, /account/settings/); null for a
 * guest, whose switches are remembered by this browser.
 * @typedef {{sounds: boolean, confirm: boolean, muteReactions: boolean, tileFaces: string, zen: boolean, saveUrl: string}} Preferences
 */
/** @type {Preferences | null} */
export const preferences = config.preferences || null;
/** @type {Record<string, (prefs: Preferences) => boolean>} */
const MEMBER_SETTINGS = {
  "mute-sounds": (prefs) => !prefs.sounds,
  confirm: (prefs) => prefs.confirm,
  "mute-reactions": (prefs) => prefs.muteReactions,
  "tile-numbers": (prefs) => prefs.tileFaces === "numbers",
};

/**
 * A switch of the table: a member's preference, else remembered by this
 * browser ("1" / "0" in localStorage).
 * @param {string} name
 * @returns {boolean}
 */
export function readSetting(name) {
  if (preferences && name in MEMBER_SETTINGS) return Boolean(MEMBER_SETTINGS[name](preferences));
  try {
    return window.localStorage.getItem(`dominoes.${name}`) === "1";
  } catch {
    return false;
  }
}

/**
 * @param {string} name
 * @param {boolean} on
 */
export function saveSetting(name, on) {
  if (preferences && name in MEMBER_SETTINGS) {
    saveMemberSetting(preferences.saveUrl, name, on);
    return;
  }
  try {
    window.localStorage.setItem(`dominoes.${name}`, on ? "1" : "0");
  } catch {
    // private browsing: the setting lasts for this page only
  }
}

/**
 * A member's switch, saved as their preference (a failure leaves it for this page).
 * @param {string} url
 * @param {string} name
 * @param {boolean} on
 */
function saveMemberSetting(url, name, on) {
  const field = /** @type {HTMLInputElement | null} */ (document.querySelector("[name=csrfmiddlewaretoken]"));
  const body = new URLSearchParams({ preference: name, value: on ? "1" : "0" });
  fetch(url, {
    method: "POST", body, credentials: "same-origin",
    headers: { "X-CSRFToken": field ? field.value : "", Accept: "application/json" },
  }).catch(() => {});
}
