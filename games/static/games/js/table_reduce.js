// The table page's state and how each frame changes it: `reduce(state,
// frame)` gives the next state for a frame of /ws/table/<id>/, `act(state,
// action)` for what the player did on the page. Both are pure (no DOM, no
// globals, the input never changed), so tests/js/table_reduce.test.js runs
// them in node; the page (table.js) keeps the one current state and draws it
// (table_render.js). What a frame asks the page to do besides drawing (read
// a move out, play a sound, send a `sync`) is `effects(before, frame, after)`.
import { tileKey } from "../../js/tiles.js";

/** @typedef {import("./table_types.js").Action} Action */
/** @typedef {import("./table_types.js").ChatFrame} ChatFrame */
/** @typedef {import("./table_types.js").Clock} Clock */
/** @typedef {import("./table_types.js").Config} Config */
/** @typedef {import("./table_types.js").HintFrame} HintFrame */
/** @typedef {import("./table_types.js").Pair} Pair */
/** @typedef {import("./table_types.js").Player} Player */
/** @typedef {import("./table_types.js").RatingChange} RatingChange */
/** @typedef {import("./table_types.js").Rematch} Rematch */
/** @typedef {import("./table_types.js").RoundOverFrame} RoundOverFrame */
/** @typedef {import("./table_types.js").GameOverFrame} GameOverFrame */
/** @typedef {import("./table_types.js").EventFrame} EventFrame */
/** @typedef {import("./table_types.js").SeatRating} SeatRating */
/** @typedef {import("./table_types.js").TableFrame} TableFrame */
/** @typedef {import("./table_types.js").TableInfo} TableInfo */
/** @typedef {import("./table_types.js").View} View */

/**
 * @typedef {object} TableState
 * @property {number | null} seat the viewer's seat, null for a spectator
 * @property {Player[]} players
 * @property {string[]} reactions the quick reactions' ids the page knows
 * @property {TableInfo | null} table the latest `state` frame's `table`
 * @property {{seq: number, head: string} | null} chain the move log's chain after event seq
 * @property {Clock | null} clock the turn timer of tables with people, or null
 * @property {number} seq the last event seen
 * @property {View | null} view null while the table waits for its players
 * @property {Action[]} legal
 * @property {string | null} selected key of a tile that fits both ends (or any, with confirm), waiting for an end
 * @property {string | null} preview key of the tile under the pointer or the focus: its destination glows
 * @property {string | null} dragging key of the tile being dragged (once it moved)
 * @property {boolean} confirm "confirm each move": tap to select, tap the glowing end to place
 * @property {boolean} pending a move was sent; wait for the server's answer
 * @property {string | null} fresh key of the tile just laid, drawn with a short animation
 * @property {number | null} freshSeat the seat that laid it (another player's tile slides in from their card)
 * @property {string | null} freshDraw key of the tile just drawn into the hand
 * @property {RoundOverFrame | null} roundFrame
 * @property {GameOverFrame | null} gameFrame
 * @property {Rematch | null} rematch a rematch asked for after the game
 * @property {Record<number, {id: string, until: number}>} bubbles a quick reaction shown on a player's card until `until`
 * @property {boolean} muteReactions
 * @property {RatingChange[] | null} ratings rating changes after a ranked game
 * @property {Record<number, SeatRating>} seatRatings at a ranked table, shown next to the names
 * @property {boolean} nextRoundSent
 * @property {boolean} panelCollapsed
 * @property {{waiting: boolean, frame: HintFrame | null, restUntil: number}} hint the latest hint asked for
 * @property {ChatFrame[]} chat the chat lines shown, oldest first (the last CHAT_LINES)
 * @property {string[]} chatMuted the members whose lines this viewer muted at this table
 * @property {string[]} chatBlocked the members this viewer blocked while the page was open (their lines kept out)
 * @property {boolean} chatOff the viewer turned the whole chat off (the server delivers no line meanwhile)
 * @property {boolean} chatTableMuted the member muted this table's chat (kept for this table; no line delivered here)
 */

/**
 * What the player did on the page.
 * @typedef {{type: "select", key: string} | {type: "unselect"} | {type: "preview", key: string | null}
 *   | {type: "drag", key: string | null} | {type: "sent"} | {type: "dropped"} | {type: "next_round_sent"}
 *   | {type: "toggle_panel"} | {type: "confirm", on: boolean} | {type: "mute_reactions", on: boolean}
 *   | {type: "seat_ratings", current: SeatRating[], changes: RatingChange[]}
 *   | {type: "rematch_asked", seats: number[], waiting: number[]} | {type: "hint_asked"} | {type: "shown"}} PageAction
 */

/**
 * What a frame asks of the page besides drawing the new state.
 * @typedef {{type: "your_turn"} | {type: "moved", frame: EventFrame} | {type: "round_over", frame: RoundOverFrame}
 *   | {type: "game_over", frame: GameOverFrame} | {type: "reaction", seat: number, id: string}
 *   | {type: "go", url: string} | {type: "later", ms: number} | {type: "error", code: string, message: string}
 *   | {type: "send", frame: {type: "sync", seq: number}}} Effect
 */

/** How many chat lines the page keeps. */
export const CHAT_LINES = 100;

/** How long a quick reaction stays on the card (ms). */
export const BUBBLE_MS = 4000;

/**
 * The state before the first frame.
 * @param {Config} config
 * @param {{confirm?: boolean, muteReactions?: boolean}} [settings] this browser's remembered settings
 * @returns {TableState}
 */
export function initialState(config, { confirm = false, muteReactions = false } = {}) {
  return {
    seat: config.seat ?? null,
    players: config.players || [],
    reactions: config.reactions || [],
    table: null,
    chain: null,
    clock: null,
    seq: 0,
    view: null,
    legal: [],
    selected: null,
    preview: null,
    dragging: null,
    confirm,
    pending: false,
    fresh: null,
    freshSeat: null,
    freshDraw: null,
    roundFrame: null,
    gameFrame: null,
    rematch: config.rematch || null,
    bubbles: {},
    muteReactions,
    ratings: null,
    seatRatings: {},
    nextRoundSent: false,
    panelCollapsed: false,
    hint: { waiting: false, frame: null, restUntil: 0 },
    chat: [],
    chatMuted: [],
    chatBlocked: [],
    chatOff: false,
    chatTableMuted: false,
  };
}

// ---------------------------------------------------------------- reading the state

/** @param {TableState} state @param {number | null | undefined} seat */
export const isMe = (state, seat) => state.seat !== null && seat === state.seat;

/** @param {TableState} state */
export const myTurn = (state) => Boolean(state.view && state.seat !== null && state.view.to_move === state.seat && state.legal.length);

/** How many ends a tile must fit to wait for a chosen end (else one tap plays it). @param {TableState} state */
export const endsToChoose = (state) => (state.confirm ? 1 : 2);

/**
 * The ends where the tile of `key` may be laid now (an end twice never: both glow once).
 * @param {TableState} state
 * @param {string | null} key
 * @returns {("left" | "right")[]}
 */
export function legalEnds(state, key) {
  if (key === null) return [];
  /** @type {("left" | "right")[]} */
  const ends = [];
  for (const action of state.legal) {
    if (action.type === "play" && tileKey(action.tile) === key && !ends.includes(action.end)) ends.push(action.end);
  }
  return ends;
}

/**
 * The legal `play` of the tile `key` on `end`, if any.
 * @param {TableState} state
 * @param {string} key
 * @param {string} end
 */
export function legalPlay(state, key, end) {
  return state.legal.find((action) => action.type === "play" && tileKey(action.tile) === key && action.end === end);
}

/** @param {TableState} state @param {Action["type"]} type */
export const canDo = (state, type) => state.legal.some((action) => action.type === type);

/**
 * @param {TableState} state
 * @param {number} seat
 * @returns {Player}
 */
export function playerInfo(state, seat) {
  return state.players.find((player) => player.seat === seat) || { seat, name: "", kind: "human" };
}

/** An event the page has seen already (before a `sync` brought it again). @param {TableState} state @param {EventFrame} frame */
const seenBefore = (state, frame) => Boolean(state.view && typeof frame.seq === "number" && frame.seq <= state.seq);

/**
 * It just became the viewer's turn (not a second `state` of the same turn).
 * @param {TableState} before
 * @param {TableState} after
 */
export function turnStarted(before, after) {
  if (!myTurn(after) || !after.view) return false;
  const was = before.view;
  return !(was && was.to_move === after.seat && was.round === after.view.round);
}

// ---------------------------------------------------------------- frames

/**
 * The state after `frame`. `now` (ms, the page's clock) dates what lasts a
 * while: a reaction's bubble, a hint's rest.
 * @param {TableState} state
 * @param {TableFrame} frame
 * @param {number} [now]
 * @returns {TableState}
 */
export function reduce(state, frame, now = 0) {
  switch (frame.type) {
    case "state": {
      const seq = frame.seq ?? state.seq;
      const table = frame.table || state.table;
      /** @type {TableState} */
      const next = {
        ...state,
        seq,
        view: frame.view || null,
        legal: frame.legal || [],
        chain: frame.chain ? { seq, head: frame.chain } : state.chain,
        table,
        players: (frame.table && frame.table.players) || state.players,
        clock: frame.table && "clock" in frame.table ? frame.table.clock || null : state.clock,
        pending: false,
      };
      if (next.selected !== null && legalEnds(next, next.selected).length < endsToChoose(next)) next.selected = null;
      if (next.preview !== null && !legalEnds(next, next.preview).length) next.preview = null;
      if (!next.view || !next.view.round_over) {
        next.roundFrame = null;
        next.nextRoundSent = false;
      }
      if (!next.view || !next.view.game_over) next.gameFrame = null;
      if (state.hint.frame && state.hint.frame.seq !== seq) next.hint = { ...state.hint, frame: null }; // the game moved on
      return next;
    }
    case "event": {
      if (seenBefore(state, frame)) return state;
      const next = { ...state, seq: frame.seq ?? state.seq };
      if (frame.action === "play" && frame.tile) {
        next.fresh = tileKey(frame.tile);
        next.freshSeat = frame.seat;
      }
      if (frame.action === "draw" && isMe(state, frame.seat) && frame.tile) next.freshDraw = tileKey(frame.tile);
      return next;
    }
    case "round_over":
      return { ...state, seq: Math.max(state.seq, frame.seq ?? 0), roundFrame: frame };
    case "game_over":
      return { ...state, seq: Math.max(state.seq, frame.seq ?? 0), gameFrame: frame };
    case "clock":
      return { ...state, clock: frame.clock || null };
    case "spectators":
      return { ...state, table: { ...(state.table || {}), spectators: frame.count } };
    case "hint":
      return { ...state, hint: { waiting: false, frame: frame.seq === state.seq ? frame : null, restUntil: now + hintRest(frame) } };
    case "rematch":
      return { ...state, rematch: { seats: frame.seats || [], waiting: frame.waiting || [], url: frame.url || null } };
    case "reaction":
      if (!showsReaction(state, frame.seat, frame.id)) return state;
      return { ...state, bubbles: { ...state.bubbles, [frame.seat]: { id: frame.id, until: now + BUBBLE_MS } } };
    case "ratings": {
      const ratings = frame.changes || [];
      const seatRatings = { ...state.seatRatings };
      for (const change of ratings) {
        seatRatings[change.seat] = { seat: change.seat, rating: change.after, provisional: change.provisional };
      }
      return { ...state, ratings, seatRatings };
    }
    case "chat": {
      // A line comes once, even when a reconnection's catch-up brings it again.
      if (typeof frame.text !== "string" || state.chat.some((line) => line.id === frame.id)) return state;
      if (state.chatOff || state.chatTableMuted || state.chatMuted.includes(frame.from) || state.chatBlocked.includes(frame.from)) return state;
      return { ...state, chat: [...state.chat, frame].slice(-CHAT_LINES) };
    }
    case "chat_muted": {
      // The whole chat off (the panel's switch): the lines shown go too; on
      // again, the server sends the last ones.
      if (frame.all === true) return { ...state, chatOff: !!frame.mute, chat: frame.mute ? [] : state.chat };
      // This table's chat muted (kept for this table only): the same, here.
      if (frame.table === true) return { ...state, chatTableMuted: !!frame.mute, chat: frame.mute ? [] : state.chat };
      const user = frame.user || "";
      if (!frame.mute) return { ...state, chatMuted: state.chatMuted.filter((name) => name !== user) };
      if (state.chatMuted.includes(user)) return state;
      return {
        ...state,
        chatMuted: [...state.chatMuted, user],
        chat: state.chat.filter((line) => line.from !== user),
      };
    }
    case "chat_blocked": {
      // The viewer blocked this member (on their profile, maybe in another
      // tab): their lines go at once and stay out of this page (no unmute).
      const user = frame.user || "";
      if (state.chatBlocked.includes(user)) return state;
      return {
        ...state,
        chatBlocked: [...state.chatBlocked, user],
        chat: state.chat.filter((line) => line.from !== user),
      };
    }
    case "error":
      return { ...state, pending: false, hint: { ...state.hint, waiting: false } };
    default:
      return state;
  }
}

/** How long the hint button rests after `frame` (ms). @param {HintFrame} frame */
const hintRest = (frame) => Math.max(0, Number(frame.cooldown) || 0) * 1000;

/** @param {TableState} state @param {number} seat @param {string} id */
const showsReaction = (state, seat, id) => state.reactions.includes(id) && !(state.muteReactions && !isMe(state, seat));

/**
 * What `frame` asks of the page besides drawing `after` (the state `reduce`
 * made of `before` and `frame`).
 * @param {TableState} before
 * @param {TableFrame} frame
 * @param {TableState} after
 * @returns {Effect[]}
 */
export function effects(before, frame, after) {
  switch (frame.type) {
    case "state":
      return turnStarted(before, after) ? [{ type: "your_turn" }] : [];
    case "event":
      return seenBefore(before, frame) ? [] : [{ type: "moved", frame }];
    case "round_over":
      return [{ type: "round_over", frame }];
    case "game_over":
      return [{ type: "game_over", frame }];
    case "reaction":
      return showsReaction(before, frame.seat, frame.id)
        ? [{ type: "reaction", seat: frame.seat, id: frame.id }, { type: "later", ms: BUBBLE_MS + 100 }]
        : [];
    case "hint": {
      // The server answers one hint every few seconds: the button rests meanwhile.
      const rest = hintRest(frame);
      return rest > 0 ? [{ type: "later", ms: rest + 50 }] : [];
    }
    case "rematch":
      // Everyone asked: those who asked go to the new table together.
      return frame.url && after.seat !== null && (frame.seats || []).includes(after.seat) ? [{ type: "go", url: frame.url }] : [];
    case "error": {
      /** @type {Effect[]} */
      const asked = [{ type: "error", code: frame.code, message: frame.message || "" }];
      if (frame.code === "stale") asked.push({ type: "send", frame: { type: "sync", seq: after.seq } });
      return asked;
    }
    default:
      return [];
  }
}

// ---------------------------------------------------------------- the player's doings

/**
 * The state after the player's `action` on the page.
 * @param {TableState} state
 * @param {PageAction} action
 * @returns {TableState}
 */
export function act(state, action) {
  switch (action.type) {
    case "select":
      return { ...state, selected: state.selected === action.key ? null : action.key };
    case "unselect":
      return state.selected === null ? state : { ...state, selected: null };
    case "preview":
      return state.preview === action.key ? state : { ...state, preview: action.key };
    case "drag":
      return state.dragging === action.key ? state : { ...state, dragging: action.key };
    case "sent":
      return { ...state, pending: true, selected: null };
    case "dropped":
      return { ...state, pending: false };
    case "next_round_sent":
      return { ...state, nextRoundSent: true };
    case "toggle_panel":
      return { ...state, panelCollapsed: !state.panelCollapsed };
    case "confirm":
      return { ...state, confirm: action.on, selected: null };
    case "mute_reactions": {
      if (!action.on) return { ...state, muteReactions: false };
      const bubbles = Object.fromEntries(Object.entries(state.bubbles).filter(([seat]) => isMe(state, Number(seat))));
      return { ...state, muteReactions: true, bubbles };
    }
    case "seat_ratings": {
      const seatRatings = Object.fromEntries(action.current.map((item) => [item.seat, item]));
      const ratings = action.changes.length && !state.ratings ? action.changes : state.ratings;
      return { ...state, seatRatings, ratings };
    }
    case "rematch_asked":
      return { ...state, rematch: { seats: action.seats, waiting: action.waiting, url: null } };
    case "hint_asked":
      return { ...state, hint: { ...state.hint, waiting: true } };
    case "shown":
      return state.fresh === null && state.freshSeat === null && state.freshDraw === null
        ? state : { ...state, fresh: null, freshSeat: null, freshDraw: null };
    default:
      return state;
  }
}
