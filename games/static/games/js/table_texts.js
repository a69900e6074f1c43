// Words of the table page, through Django's JavaScript catalogue (/jsi18n/).
// The catalogue script defines gettext/ngettext/interpolate on window; the
// fallbacks keep the page usable (in English) if it failed to load.
import { isMe, playerInfo } from "./table_reduce.js";

/** @typedef {import("./table_reduce.js").TableState} TableState */
/** @typedef {import("./table_types.js").EventFrame} EventFrame */
/** @typedef {import("./table_types.js").Pair} Pair */

/** @type {(text: string) => string} */
export const gettext = window.gettext || ((text) => text);
/** @type {(one: string, many: string, count: number) => string} */
export const ngettext = window.ngettext || ((one, many, count) => (count === 1 ? one : many));

/**
 * Fill %(name)s placeholders.
 * @param {string} template
 * @param {Record<string, string | number>} values
 */
export function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (match, key) => (key in values ? String(values[key]) : match));
}

/** @param {readonly number[]} tile */
export function tileText([a, b]) {
  return `${a}-${b}`;
}

/** @param {string | null | undefined} level */
export function levelText(level) {
  /** @type {Record<string, string>} */
  const levels = { easy: gettext("easy"), medium: gettext("medium"), hard: gettext("hard") };
  return (level && levels[level]) || "";
}

/** @param {string | null | undefined} end */
export function endText(end) {
  return end === "right" ? gettext("on the right") : gettext("on the left");
}

/**
 * A seat's latest doing this round (table_render.js's lastActions).
 * @typedef {{action: "draw", draws: number} | {action: "pass", draws: number} | {action: "play", tile: Pair, end: string | null | undefined, opened: boolean, draws: number}} LastAction
 */

/**
 * "played 6-4 on the left", "drew 2 tiles", "passed": a seat's latest doing.
 * @param {LastAction | undefined} last
 */
export function lastActionText(last) {
  if (!last) return "";
  if (last.action === "pass") return gettext("passed");
  if (last.action === "draw") {
    return format(ngettext("drew a tile", "drew %(count)s tiles", last.draws), { count: last.draws });
  }
  if (last.opened) return format(gettext("opened with %(tile)s"), { tile: tileText(last.tile) });
  const played = format(gettext("played %(tile)s %(end)s"), { tile: tileText(last.tile), end: endText(last.end) });
  if (!last.draws) return played;
  return format(ngettext("drew a tile, then %(played)s", "drew %(count)s tiles, then %(played)s", last.draws), {
    count: last.draws,
    played,
  });
}

/**
 * A move told to a screen reader: "Anna played 6-4 on the left."
 * @param {string} name
 * @param {boolean} isMe
 * @param {EventFrame} frame
 */
export function eventText(name, isMe, frame) {
  if (frame.action === "play") {
    const values = { name, tile: frame.tile ? tileText(frame.tile) : "", end: endText(frame.end) };
    return format(isMe ? gettext("You played %(tile)s %(end)s.") : gettext("%(name)s played %(tile)s %(end)s."), values);
  }
  if (frame.action === "draw") {
    if (isMe && frame.tile) return format(gettext("You drew %(tile)s."), { tile: tileText(frame.tile) });
    return format(isMe ? gettext("You drew a tile.") : gettext("%(name)s drew a tile."), { name });
  }
  return format(isMe ? gettext("You passed.") : gettext("%(name)s passed."), { name });
}

/**
 * @param {string} code
 * @param {string | undefined} message
 */
export function errorText(code, message) {
  /** @type {Record<string, string>} */
  const texts = {
    not_your_turn: gettext("It is not your turn."),
    illegal: gettext("That move is not allowed."),
    stale: gettext("The table moved on: catching up."),
    bad_frame: gettext("The server did not understand that message."),
    rate_limited: gettext("Too fast: wait a moment."),
    not_seated: gettext("You are watching this table: only its players can play."),
  };
  return texts[code] || message || gettext("Something went wrong.");
}

/** @param {number} points */
export function pointsText(points) {
  return format(ngettext("%(count)s point", "%(count)s points", points), { count: points });
}

/** @param {number} pips */
export function pipsText(pips) {
  return format(ngettext("%(count)s pip", "%(count)s pips", pips), { count: pips });
}

/**
 * The quick reactions (games.live.reactions.REACTION_IDS): the server sends ids only.
 * @param {string} id
 */
export function reactionText(id) {
  /** @type {Record<string, string>} */
  const texts = {
    hello: gettext("Hello!"),
    good_move: gettext("Good move!"),
    oops: gettext("Oops!"),
    thinking: gettext("Let me think…"),
    good_game: gettext("Good game!"),
    thanks: gettext("Thanks!"),
  };
  return texts[id] || "";
}

// ---------------------------------------------------------------- names

/**
 * "You", the player's name, or "Player 2".
 * @param {TableState} state
 * @param {number} seat
 */
export function nameOf(state, seat) {
  if (isMe(state, seat)) return gettext("You");
  const info = playerInfo(state, seat);
  return info.name || format(gettext("Player %(number)s"), { number: seat + 1 });
}

/** @param {TableState} state @param {number} team */
export function pairNames(state, team) {
  return { first: nameOf(state, team), second: nameOf(state, team + 2) };
}

/** @param {TableState} state @param {number} team */
export function teamName(state, team) {
  if (state.seat !== null) return state.seat % 2 === team ? gettext("Your pair") : gettext("The opponents");
  return format(gettext("%(first)s and %(second)s"), pairNames(state, team));
}
