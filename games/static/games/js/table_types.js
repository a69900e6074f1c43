// The shapes of the table page's data, for the JSDoc types that `tsc
// --checkJs` checks (make lint): the config from the server, the frames of
// /ws/table/<id>/ (docs/protocol.md) and the page's state (table_reduce.js).
// Types only: no page loads this module.

/** @typedef {import("../../js/tiles.js").Pair} Pair */
/** @typedef {"left" | "right"} End */

/**
 * A legal action of the viewer, in the shape of a client frame.
 * @typedef {{type: "play", tile: Pair, end: End} | {type: "draw"} | {type: "pass"} | {type: "next_round"}} Action
 */

/**
 * @typedef {object} Player
 * @property {number} seat
 * @property {string} name
 * @property {"human" | "computer" | "open"} kind
 * @property {"easy" | "medium" | "hard" | null} [level]
 * @property {string | null} [member]
 * @property {boolean} [bot] a bot account's seat (its name is marked)
 */

/**
 * @typedef {object} Rules
 * @property {boolean} draw
 * @property {number} players
 * @property {boolean} teams
 * @property {number} target
 * @property {string} [team_scoring]
 */

/**
 * @typedef {object} HistoryEntry
 * @property {number} seat
 * @property {"play" | "draw" | "pass"} action
 * @property {Pair | null} [tile]
 * @property {End | null} [end]
 * @property {[number, number] | null} [ends]
 */

/**
 * @typedef {object} RoundResult
 * @property {number | null} winner
 * @property {number | null} [team]
 * @property {number} points
 * @property {boolean} blocked
 */

/**
 * The viewer's view (INTERFACES section 7, plus the engine's extras).
 * @typedef {object} View
 * @property {number | null} seat
 * @property {Pair[]} hand
 * @property {Pair[]} line
 * @property {[number, number] | null} ends
 * @property {number[]} hand_counts
 * @property {number} boneyard_count
 * @property {number | null} to_move
 * @property {number[]} scores
 * @property {number} round
 * @property {HistoryEntry[]} history
 * @property {Rules} rules
 * @property {boolean} round_over
 * @property {boolean} game_over
 * @property {RoundResult | null} [round_result]
 * @property {number | null} [winner]
 * @property {string | null} [end_reason]
 * @property {number | null} [resigned]
 */

/**
 * The turn timer of a table with people (games/live/clock.py).
 * @typedef {object} Clock
 * @property {number} seat
 * @property {number} deadline_ms
 * @property {number} turn_seconds the whole turn of the seat to act
 * @property {number[]} turn_seconds_by_seat every seat's whole turn (half for a berserk player)
 * @property {number[]} away
 * @property {boolean} claimable
 */

/**
 * The `table` of a `state` frame.
 * @typedef {object} TableInfo
 * @property {boolean} [ranked]
 * @property {Player[]} [players]
 * @property {number} [spectators]
 * @property {string} [commitment]
 * @property {Clock | null} [clock]
 */

/**
 * @typedef {object} RatingChange
 * @property {number} seat
 * @property {number} before
 * @property {number} after
 * @property {number} delta
 * @property {boolean} provisional
 * @property {number} [weight] the weight of a repeated game between the same players (1/k for the k-th in a day)
 */

/** @typedef {{seat: number, rating: number, provisional: boolean}} SeatRating */
/** @typedef {{seats: number[], waiting: number[], url: string | null}} Rematch */

/**
 * @typedef {object} Config the page's "table-config" (games.pages.game_pages.table_config)
 * @property {number} tableId
 * @property {string} wsPath
 * @property {number | null} seat
 * @property {Player[]} players
 * @property {string} [commitment]
 * @property {string[]} [reactions]
 * @property {Rematch | null} [rematch]
 * @property {{sounds: boolean, confirm: boolean, muteReactions: boolean, tileFaces: string, zen: boolean, saveUrl: string} | null} [preferences] a member's preferences (null for a guest)
 * @property {string} [me] the viewer's username ("" for a guest: the chat is read only)
 */

/** @typedef {{type: "state", seq?: number, view?: View | null, legal?: Action[], table?: TableInfo, chain?: string}} StateFrame */
/** @typedef {{type: "event", seq?: number, seat: number, action: string, tile?: Pair, end?: End}} EventFrame */
/** @typedef {{type: "round_over", seq?: number, result: RoundResult, hands?: Pair[][], scores?: number[]}} RoundOverFrame */
/** @typedef {{type: "game_over", seq?: number, scores?: number[], winner: number | null, reason?: string, resigned?: number | null, aborted?: boolean}} GameOverFrame */
/** @typedef {{type: "clock", clock?: Clock | null}} ClockFrame */
/** @typedef {{type: "spectators", count: number}} SpectatorsFrame */
/** @typedef {{type: "hint", seq: number, action: Action, why?: string, cooldown?: number}} HintFrame */
/** @typedef {{type: "rematch", seats?: number[], waiting?: number[], url?: string | null}} RematchFrame */
/** @typedef {{type: "reaction", seat: number, id: string}} ReactionFrame */
/** @typedef {{type: "ratings", changes?: RatingChange[]}} RatingsFrame */
/** @typedef {{type: "error", code: string, message?: string}} ErrorFrame */
/** A line of the table's chat (docs/protocol.md): text only, never markup. */
/** @typedef {{type: "chat", id: number, from: string, text: string, room: "players" | "spectators", bot?: boolean}} ChatFrame */
/** @typedef {{type: "chat_muted", user?: string, all?: boolean, table?: boolean, mute: boolean}} ChatMutedFrame */
/** To the blocker's pages only: they blocked `user`, whose lines go (docs/protocol.md). */
/** @typedef {{type: "chat_blocked", user: string}} ChatBlockedFrame */

/**
 * A frame of /ws/table/<id>/ that the page reads (others pass through unread).
 * @typedef {StateFrame | EventFrame | RoundOverFrame | GameOverFrame | ClockFrame | SpectatorsFrame
 *   | HintFrame | RematchFrame | ReactionFrame | RatingsFrame | ErrorFrame | ChatFrame | ChatMutedFrame | ChatBlockedFrame} TableFrame
 */

export {};
