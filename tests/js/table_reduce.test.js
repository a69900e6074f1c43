// The table page's reducer (games/static/games/js/table_reduce.js), in node:
// every frame of docs/protocol.md that the page reads, and the player's doings.
// Every input state is deeply frozen: a reducer that changed it would throw.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  act, BUBBLE_MS, CHAT_LINES, effects, initialState, legalEnds, myTurn, reduce, turnStarted,
} from "../../games/static/games/js/table_reduce.js";

/** @template T @param {T} value @returns {T} */
function freeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) freeze(inner);
  }
  return value;
}

const config = {
  tableId: 7, wsPath: "/ws/table/7/", seat: 0,
  players: [{ seat: 0, name: "Ada", kind: "human" }, { seat: 1, name: "Computer 1", kind: "computer", level: "hard" }],
  reactions: ["hello", "thanks"],
};

function view(overrides = {}) {
  return {
    seat: 0, hand: [[6, 3], [1, 2]], line: [[6, 6]], ends: [6, 6], hand_counts: [2, 6], boneyard_count: 0,
    to_move: 0, scores: [0, 0], round: 1, history: [{ seat: 1, action: "play", tile: [6, 6], end: "left", ends: null }],
    rules: { draw: false, players: 2, teams: false, target: 50 }, round_over: false, game_over: false,
    ...overrides,
  };
}

const BOTH_ENDS = [{ type: "play", tile: [3, 6], end: "left" }, { type: "play", tile: [3, 6], end: "right" }];

/** A state frame, then the reduced state (frozen). */
function after(state, frame, now = 0) {
  return freeze(reduce(freeze(state), freeze(frame), now));
}

function seated(frame = {}) {
  return after(initialState(config), { type: "state", seq: 1, view: view(), legal: BOTH_ENDS, ...frame });
}

describe("initialState", () => {
  it("starts from the config and this browser's settings", () => {
    const state = initialState(config, { confirm: true, muteReactions: true });
    assert.equal(state.seat, 0);
    assert.equal(state.players.length, 2);
    assert.deepEqual(state.reactions, ["hello", "thanks"]);
    assert.equal(state.confirm, true);
    assert.equal(state.muteReactions, true);
    assert.equal(state.view, null);
    assert.equal(state.seq, 0);
  });

  it("is a spectator's without a seat", () => {
    assert.equal(initialState({ ...config, seat: undefined }).seat, null);
  });
});

describe("a state frame", () => {
  it("takes the view, the legal moves, the seq and the table", () => {
    const table = { ranked: false, spectators: 2, players: [{ seat: 0, name: "Bob", kind: "human" }], clock: null };
    const state = seated({ table, chain: "ab12" });
    assert.equal(state.seq, 1);
    assert.equal(state.view.to_move, 0);
    assert.deepEqual(state.legal, BOTH_ENDS);
    assert.equal(state.table.spectators, 2);
    assert.equal(state.players[0].name, "Bob");
    assert.deepEqual(state.chain, { seq: 1, head: "ab12" });
    assert.equal(state.clock, null);
  });

  it("keeps the players, the clock and the chain a frame does not carry", () => {
    const clock = { seat: 0, deadline_ms: 5, away: [], claimable: false };
    const first = seated({ table: { clock }, chain: "ab12" });
    const second = after(first, { type: "state", seq: 2, view: view({ to_move: 1 }), legal: [] });
    assert.deepEqual(second.clock, clock);
    assert.deepEqual(second.chain, { seq: 1, head: "ab12" });
    assert.equal(second.players[0].name, "Ada");
  });

  it("is a waiting table with a null view", () => {
    const state = after(initialState(config), { type: "state", seq: 0, view: null, legal: [] });
    assert.equal(state.view, null);
    assert.equal(myTurn(state), false);
  });

  it("answers a pending move and drops a selection no longer legal", () => {
    let state = act(seated(), { type: "select", key: "3-6" });
    state = freeze(act(state, { type: "sent" }));
    assert.equal(state.pending, true);
    assert.equal(state.selected, null);
    const answered = after(state, { type: "state", seq: 2, view: view({ to_move: 1 }), legal: [] });
    assert.equal(answered.pending, false);
    const selected = freeze(act(seated(), { type: "select", key: "3-6" }));
    const next = after(selected, { type: "state", seq: 2, view: view({ to_move: 1 }), legal: [] });
    assert.equal(next.selected, null);
  });

  it("keeps a selection that still fits both ends", () => {
    const selected = freeze(act(seated(), { type: "select", key: "3-6" }));
    assert.equal(after(selected, { type: "state", seq: 1, view: view(), legal: BOTH_ENDS }).selected, "3-6");
  });

  it("closes the round and game panels once a new round is on", () => {
    let state = after(seated(), { type: "round_over", seq: 5, result: { winner: 0, points: 9, blocked: false }, hands: [[], [[1, 1]]] });
    state = freeze(act(state, { type: "next_round_sent" }));
    const over = after(state, { type: "state", seq: 5, view: view({ round_over: true }), legal: [] });
    assert.notEqual(over.roundFrame, null);
    assert.equal(over.nextRoundSent, true);
    const next = after(over, { type: "state", seq: 6, view: view({ round: 2 }), legal: BOTH_ENDS });
    assert.equal(next.roundFrame, null);
    assert.equal(next.nextRoundSent, false);
  });

  it("forgets a hint of an earlier move", () => {
    const hinted = after(seated(), { type: "hint", seq: 1, action: BOTH_ENDS[0], why: "", cooldown: 0 });
    assert.notEqual(hinted.hint.frame, null);
    assert.notEqual(after(hinted, { type: "state", seq: 1, view: view(), legal: BOTH_ENDS }).hint.frame, null);
    assert.equal(after(hinted, { type: "state", seq: 2, view: view({ to_move: 1 }), legal: [] }).hint.frame, null);
  });
});

describe("your turn", () => {
  it("starts once per turn", () => {
    const waiting = after(initialState(config), { type: "state", seq: 0, view: view({ to_move: 1 }), legal: [] });
    const frame = { type: "state", seq: 1, view: view(), legal: BOTH_ENDS };
    const mine = after(waiting, frame);
    assert.equal(turnStarted(waiting, mine), true);
    assert.deepEqual(effects(waiting, frame, mine), [{ type: "your_turn" }]);
    const again = after(mine, frame);
    assert.equal(turnStarted(mine, again), false);
    assert.deepEqual(effects(mine, frame, again), []);
  });

  it("starts again in a new round", () => {
    const mine = seated();
    const next = after(mine, { type: "state", seq: 9, view: view({ round: 2 }), legal: BOTH_ENDS });
    assert.equal(turnStarted(mine, next), true);
  });

  it("never comes to a spectator", () => {
    const watcher = initialState({ ...config, seat: null });
    const state = after(watcher, { type: "state", seq: 1, view: view({ seat: null }), legal: [] });
    assert.equal(turnStarted(watcher, state), false);
  });
});

describe("an event", () => {
  it("marks the tile just laid and who laid it", () => {
    const frame = { type: "event", seq: 2, seat: 1, action: "play", tile: [5, 3], end: "right" };
    const before = seated();
    const state = after(before, frame);
    assert.equal(state.seq, 2);
    assert.equal(state.fresh, "3-5");
    assert.equal(state.freshSeat, 1);
    assert.deepEqual(effects(before, frame, state), [{ type: "moved", frame }]);
    const shown = act(state, { type: "shown" });
    assert.equal(shown.fresh, null);
    assert.equal(shown.freshSeat, null);
  });

  it("marks the tile the viewer drew, not another's draw", () => {
    assert.equal(after(seated(), { type: "event", seq: 2, seat: 0, action: "draw", tile: [4, 2] }).freshDraw, "2-4");
    assert.equal(after(seated(), { type: "event", seq: 2, seat: 1, action: "draw" }).freshDraw, null);
  });

  it("seen before a sync is skipped: same state, nothing read out", () => {
    const state = after(seated(), { type: "state", seq: 4, view: view(), legal: BOTH_ENDS });
    const frame = { type: "event", seq: 3, seat: 1, action: "play", tile: [1, 6], end: "left" };
    assert.equal(reduce(state, frame), state);
    assert.deepEqual(effects(state, frame, state), []);
  });
});

describe("the notices", () => {
  it("round_over and game_over keep their frame and the highest seq", () => {
    const round = { type: "round_over", seq: 8, result: { winner: 1, points: 12, blocked: true }, hands: [[[6, 6]], []] };
    let state = after(seated(), round);
    assert.equal(state.seq, 8);
    assert.deepEqual(state.roundFrame, round);
    assert.deepEqual(effects(seated(), round, state), [{ type: "round_over", frame: round }]);
    const game = { type: "game_over", seq: 3, scores: [0, 60], winner: 1 };
    state = after(state, game);
    assert.equal(state.seq, 8);
    assert.deepEqual(state.gameFrame, game);
  });

  it("a clock frame replaces the clock; spectators count on the table", () => {
    const clock = { seat: 1, deadline_ms: 1000, away: [1], claimable: true };
    assert.deepEqual(after(seated(), { type: "clock", clock }).clock, clock);
    assert.equal(after(seated(), { type: "clock" }).clock, null);
    assert.equal(after(seated(), { type: "spectators", count: 3 }).table.spectators, 3);
  });

  it("a reaction shows on the card for a while, unless muted", () => {
    const frame = { type: "reaction", seat: 1, id: "hello" };
    const state = after(seated(), frame, 1000);
    assert.deepEqual(state.bubbles[1], { id: "hello", until: 1000 + BUBBLE_MS });
    assert.deepEqual(effects(seated(), frame, state), [
      { type: "reaction", seat: 1, id: "hello" }, { type: "later", ms: BUBBLE_MS + 100 },
    ]);
    const muted = freeze(act(seated(), { type: "mute_reactions", on: true }));
    assert.equal(reduce(muted, frame, 1000), muted);
    assert.deepEqual(effects(muted, frame, muted), []);
    // One's own still shows; an id the page does not know never does.
    assert.equal(after(muted, { type: "reaction", seat: 0, id: "thanks" }, 5).bubbles[0].id, "thanks");
    const state2 = seated();
    assert.equal(reduce(state2, { type: "reaction", seat: 1, id: "<b>" }), state2);
  });

  it("muting drops the others' bubbles already shown", () => {
    let state = after(seated(), { type: "reaction", seat: 1, id: "hello" }, 0);
    state = after(state, { type: "reaction", seat: 0, id: "thanks" }, 0);
    const muted = act(state, { type: "mute_reactions", on: true });
    assert.deepEqual(Object.keys(muted.bubbles), ["0"]);
  });

  it("a hint answers the current move and rests the button", () => {
    const frame = { type: "hint", seq: 1, action: BOTH_ENDS[1], why: "best", cooldown: 3 };
    const asked = freeze(act(seated(), { type: "hint_asked" }));
    assert.equal(asked.hint.waiting, true);
    const state = after(asked, frame, 10_000);
    assert.deepEqual(state.hint, { waiting: false, frame, restUntil: 13_000 });
    assert.deepEqual(effects(asked, frame, state), [{ type: "later", ms: 3050 }]);
    assert.equal(after(asked, { ...frame, seq: 0 }).hint.frame, null);
  });

  it("a rematch: those who asked go to the new table, the others see it", () => {
    const frame = { type: "rematch", seats: [0, 1], waiting: [], url: "/table/8/" };
    const state = after(seated(), frame);
    assert.deepEqual(state.rematch, { seats: [0, 1], waiting: [], url: "/table/8/" });
    assert.deepEqual(effects(seated(), frame, state), [{ type: "go", url: "/table/8/" }]);
    const asking = { type: "rematch", seats: [1], waiting: [0], url: null };
    assert.deepEqual(effects(seated(), asking, after(seated(), asking)), []);
    const watcher = after(initialState({ ...config, seat: null }), { type: "state", seq: 1, view: view({ seat: null }), legal: [] });
    assert.deepEqual(effects(watcher, frame, after(watcher, frame)), []);
  });

  it("ratings show the changes and each seat's new rating", () => {
    const changes = [{ seat: 0, before: 1500, after: 1515, delta: 15, provisional: true }];
    const state = after(seated(), { type: "ratings", changes });
    assert.deepEqual(state.ratings, changes);
    assert.deepEqual(state.seatRatings[0], { seat: 0, rating: 1515, provisional: true });
  });

  it("an error answers the pending move; a stale one asks for a sync", () => {
    const pending = freeze(act(act(seated(), { type: "hint_asked" }), { type: "sent" }));
    const frame = { type: "error", code: "stale", message: "The table moved on." };
    const state = after(pending, frame);
    assert.equal(state.pending, false);
    assert.equal(state.hint.waiting, false);
    assert.deepEqual(effects(pending, frame, state), [
      { type: "error", code: "stale", message: "The table moved on." }, { type: "send", frame: { type: "sync", seq: 1 } },
    ]);
    assert.deepEqual(effects(pending, { type: "error", code: "illegal" }, state), [{ type: "error", code: "illegal", message: "" }]);
  });

  it("a frame the page does not read changes nothing", () => {
    const state = seated();
    assert.equal(reduce(state, { type: "settlement", results: [] }), state);
    assert.deepEqual(effects(state, { type: "pong", seq: 1 }, state), []);
  });
});

describe("the player's doings", () => {
  it("a tile is selected, then unselected by a second tap or Escape", () => {
    const selected = freeze(act(seated(), { type: "select", key: "3-6" }));
    assert.equal(selected.selected, "3-6");
    assert.equal(act(selected, { type: "select", key: "3-6" }).selected, null);
    assert.equal(act(selected, { type: "unselect" }).selected, null);
    const none = seated();
    assert.equal(act(none, { type: "unselect" }), none);
  });

  it("both ends of a tile that fits both, once each", () => {
    const state = seated();
    assert.deepEqual(legalEnds(state, "3-6"), ["left", "right"]);
    assert.deepEqual(legalEnds(state, "1-2"), []);
    assert.deepEqual(legalEnds(state, null), []);
    const twice = after(initialState(config), { type: "state", seq: 1, view: view(), legal: [...BOTH_ENDS, BOTH_ENDS[0]] });
    assert.deepEqual(legalEnds(twice, "3-6"), ["left", "right"]);
  });

  it("confirm each move drops the selection; a preview is kept until the state says otherwise", () => {
    const selected = freeze(act(seated(), { type: "select", key: "3-6" }));
    const confirming = act(selected, { type: "confirm", on: true });
    assert.equal(confirming.confirm, true);
    assert.equal(confirming.selected, null);
    const preview = freeze(act(seated(), { type: "preview", key: "3-6" }));
    assert.equal(preview.preview, "3-6");
    assert.equal(act(preview, { type: "preview", key: "3-6" }), preview);
    assert.equal(after(preview, { type: "state", seq: 2, view: view({ to_move: 1 }), legal: [] }).preview, null);
  });

  it("a socket that dropped leaves no move pending", () => {
    const pending = freeze(act(seated(), { type: "sent" }));
    assert.equal(act(pending, { type: "dropped" }).pending, false);
  });

  it("ratings.json: the seats' ratings, and the changes unless a frame brought them", () => {
    const current = [{ seat: 0, rating: 1500, provisional: false }];
    const changes = [{ seat: 0, before: 1490, after: 1500, delta: 10, provisional: false }];
    const state = act(seated(), { type: "seat_ratings", current, changes });
    assert.deepEqual(state.seatRatings, { 0: current[0] });
    assert.deepEqual(state.ratings, changes);
    const framed = after(seated(), { type: "ratings", changes: [{ ...changes[0], after: 1510, delta: 20 }] });
    assert.equal(act(framed, { type: "seat_ratings", current, changes }).ratings[0].after, 1510);
  });

  it("the rematch asked by POST, the results panel folded", () => {
    const state = act(seated(), { type: "rematch_asked", seats: [0], waiting: [1] });
    assert.deepEqual(state.rematch, { seats: [0], waiting: [1], url: null });
    assert.equal(act(seated(), { type: "toggle_panel" }).panelCollapsed, true);
  });
});

describe("chat", () => {
  const line = (id, from, text = "hi") => ({ type: "chat", id, from, text, room: "players" });

  it("adds each line once, even when a catch-up brings it again", () => {
    let state = after(initialState(config), line(1, "bob", "<b>gg</b>"));
    state = after(state, line(2, "ada"));
    state = after(state, line(1, "bob", "<b>gg</b>"));
    assert.deepEqual(state.chat.map((item) => [item.id, item.text]), [[1, "<b>gg</b>"], [2, "hi"]]);
    assert.deepEqual(effects(initialState(config), line(3, "bob"), state), []);
  });

  it("keeps the last lines only", () => {
    let state = initialState(config);
    for (let id = 1; id <= CHAT_LINES + 5; id += 1) state = reduce(state, line(id, "bob"));
    assert.equal(state.chat.length, CHAT_LINES);
    assert.equal(state.chat[0].id, 6);
  });

  it("turns the whole chat off: the lines shown go, none is added until it is on again", () => {
    let state = after(after(initialState(config), line(1, "bob")), line(2, "ada"));
    state = after(state, { type: "chat_muted", all: true, mute: true });
    assert.equal(state.chatOff, true);
    assert.deepEqual(state.chat, []);
    assert.equal(after(state, line(3, "bob")), state);
    state = after(state, { type: "chat_muted", all: true, mute: false });
    assert.equal(state.chatOff, false);
    assert.deepEqual(after(state, line(3, "bob")).chat.map((item) => item.id), [3]);
  });

  it("mutes this table's chat apart from the whole chat switch: no line shown until unmuted", () => {
    let state = after(after(initialState(config), line(1, "bob")), line(2, "ada"));
    state = after(state, { type: "chat_muted", table: true, mute: true });
    assert.equal(state.chatTableMuted, true);
    assert.equal(state.chatOff, false);
    assert.deepEqual(state.chat, []);
    assert.equal(after(state, line(3, "bob")), state);
    state = after(state, { type: "chat_muted", table: true, mute: false });
    assert.equal(state.chatTableMuted, false);
    assert.deepEqual(after(state, line(3, "bob")).chat.map((item) => item.id), [3]);
  });

  it("hides a muted member's lines, past and coming, until unmuted", () => {
    let state = after(after(initialState(config), line(1, "bob")), line(2, "ada"));
    state = after(state, { type: "chat_muted", user: "bob", mute: true });
    assert.deepEqual(state.chat.map((item) => item.from), ["ada"]);
    assert.equal(after(state, line(3, "bob")), state);
    state = after(state, { type: "chat_muted", user: "bob", mute: false });
    assert.deepEqual(after(state, line(4, "bob")).chat.map((item) => item.id), [2, 4]);
  });

  it("drops a blocked member's lines at once and keeps them out, even unmuted", () => {
    let state = after(after(after(initialState(config), line(1, "bob")), line(2, "ada")), line(3, "bob"));
    state = after(state, { type: "chat_blocked", user: "bob" });
    assert.deepEqual(state.chat.map((item) => item.from), ["ada"]);
    assert.equal(after(state, line(4, "bob")), state);
    state = after(state, { type: "chat_muted", user: "bob", mute: false });
    assert.deepEqual(after(state, line(5, "bob")).chat.map((item) => item.id), [2]);
  });
});
