// Drawing the table from the latest state: players, status, the line, the
// hand, the round-over and game-over panels, and the feedback (announcements
// for screen readers, toasts, the connection line).
import { tileElement, tileKey, tileSvg } from "../../js/tiles.js";
import { fitLine, openerIndex } from "./line_layout.js";
import { $, config, el, els, find, preferences } from "./table_dom.js";
import { canDo, endsToChoose, isMe, legalEnds, myTurn, playerInfo } from "./table_reduce.js";
import {
  format, gettext, lastActionText, levelText, nameOf, ngettext, pairNames, pipsText, pointsText, reactionText,
  teamName, tileText,
} from "./table_texts.js";
import { botMark, reportPlayerUrl } from "./table_chat.js";
import { renderHint } from "./table_hint.js";

/** @typedef {import("./table_reduce.js").TableState} TableState */
/** @typedef {import("./table_texts.js").LastAction} LastAction */
/** @typedef {import("./table_types.js").GameOverFrame} GameOverFrame */
/** @typedef {import("./table_types.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./table_types.js").Pair} Pair */
/** @typedef {import("./table_types.js").RoundResult} RoundResult */
/** @typedef {import("./table_types.js").Rules} Rules */
/** @typedef {import("./table_types.js").View} View */

// ---------------------------------------------------------------- history

/**
 * Each seat's latest doing this round, from the view's public history.
 * @param {HistoryEntry[]} history
 * @returns {Record<number, LastAction>}
 */
function lastActions(history) {
  /** @type {Record<number, LastAction>} */
  const last = {};
  /** @type {HistoryEntry | null} */
  let previous = null;
  for (const entry of history || []) {
    const running = previous && previous.seat === entry.seat && previous.action === "draw";
    const draws = running ? last[entry.seat].draws : 0;
    if (entry.action === "draw") last[entry.seat] = { action: "draw", draws: draws + 1 };
    else if (entry.action === "pass") last[entry.seat] = { action: "pass", draws };
    else if (entry.tile) last[entry.seat] = { action: "play", tile: entry.tile, end: entry.end, opened: !entry.ends, draws };
    previous = entry;
  }
  return last;
}

// ---------------------------------------------------------------- players

/** @param {number} count */
function handBacks(count) {
  const backs = el("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, 7); i += 1) backs.append(el("i"));
  return backs;
}

/**
 * @param {TableState} state
 * @param {View} view
 * @param {number} seat
 * @param {Record<number, LastAction>} last
 * @param {HTMLElement} [node]
 */
function playerCard(state, view, seat, last, node = el("li")) {
  const info = playerInfo(state, seat);
  const count = view.hand_counts[seat] ?? 0;
  node.className = "player";
  node.dataset.seat = String(seat);
  node.toggleAttribute("data-turn", view.to_move === seat);
  if (view.to_move === seat) node.setAttribute("aria-current", "true");
  else node.removeAttribute("aria-current");
  const name = el("span", { class: "player-name", text: nameOf(state, seat) });
  // Zen mode (a member's preference): no ratings while the game is played.
  const zen = Boolean(preferences && preferences.zen && !(view && view.game_over) && !state.gameFrame);
  const rating = zen ? null : state.seatRatings[seat];
  if (rating) {
    name.append(el("span", {
      class: "player-rating", "data-seat-rating": rating.rating, text: ` ${rating.rating}${rating.provisional ? "?" : ""}`,
    }));
  }
  if (info.kind === "computer") name.append(el("span", { class: "badge", text: levelText(info.level) || gettext("computer") }));
  if (info.bot) name.append(" ", botMark());
  if (view.rules.teams && state.seat !== null && !isMe(state, seat) && seat % 2 === state.seat % 2) {
    name.append(el("span", { class: "badge badge--partner", text: gettext("partner") }));
  }
  const clock = state.clock;
  if (clock && clock.away && clock.away.includes(seat)) {
    name.append(el("span", { class: "badge badge--away", text: gettext("away") }));
  }
  if (clock && clock.seat === seat && clock.deadline_ms && !view.round_over) {
    name.append(el("span", { class: "player-clock", "data-deadline": clock.deadline_ms, "aria-hidden": "true" }));
  }
  const tiles = format(ngettext("%(count)s tile", "%(count)s tiles", count), { count });
  const row = el("span", { class: "player-row" }, handBacks(count), el("span", { class: "player-count", text: tiles }));
  if (!view.rules.teams) {
    row.append(el("span", { class: "player-score", text: pointsText(view.scores[seat] ?? 0) }));
  }
  node.replaceChildren(name, row, el("span", { class: "player-last", text: lastActionText(last[seat]) }));
  // Another member's name: a report link (their profile's report form, this table attached).
  const pattern = document.getElementById("chat")?.dataset.profileUrl;
  if (config.me && pattern && info.member && info.member !== config.me) {
    node.append(el("a", {
      class: "player-report small", href: reportPlayerUrl(pattern, info.member, config.tableId),
      target: "_blank", rel: "noopener", "data-report-player": info.member, text: gettext("Report"),
    }));
  }
  const bubble = state.bubbles[seat];
  if (bubble && bubble.until > Date.now()) {
    node.append(el("span", { class: "reaction-bubble", "data-reaction-bubble": bubble.id, text: reactionText(bubble.id) }));
  }
  return node;
}

/** @param {TableState} state @param {View} view */
export function renderPlayers(state, view) {
  const count = view.hand_counts.length;
  const last = lastActions(view.history);
  const first = state.seat === null ? 0 : state.seat + 1;
  const others = [];
  for (let i = 0; i < count; i += 1) {
    const seat = (first + i) % count;
    if (!isMe(state, seat)) others.push(playerCard(state, view, seat, last));
  }
  els.players.replaceChildren(...others);
  els.players.dataset.count = String(others.length);
  if (state.seat !== null) playerCard(state, view, state.seat, last, els.mePlayer);
  els.mePlayer.hidden = state.seat === null;
}

// ---------------------------------------------------------------- status

/** @param {TableState} state @param {View} view */
export function renderStatus(state, view) {
  let status;
  if (view.game_over) status = gettext("Game over");
  else if (view.round_over) status = gettext("Round over");
  else if (view.to_move === null || view.to_move === undefined) status = "";
  else if (isMe(state, view.to_move)) {
    status = state.selected ? gettext("Your turn: choose an end for the tile.") : gettext("Your turn");
  } else status = format(gettext("%(name)s to play"), { name: nameOf(state, view.to_move) });
  els.status.textContent = status;
  els.table.toggleAttribute("data-my-turn", myTurn(state));
  els.table.toggleAttribute("data-pending", state.pending);
  els.round.textContent = format(gettext("Round %(number)s"), { number: view.round });
  els.boneyard.hidden = !view.rules.draw;
  els.boneyard.textContent = format(gettext("Boneyard: %(count)s"), { count: view.boneyard_count });
  els.target.textContent = view.rules.target
    ? format(gettext("Game to %(points)s"), { points: view.rules.target })
    : gettext("Single round");
  const watching = state.table && state.table.spectators;
  els.spectators.hidden = !watching;
  if (watching) els.spectators.textContent = format(ngettext("%(count)s watching", "%(count)s watching", watching), { count: watching });
  els.teamScores.hidden = !view.rules.teams;
  if (view.rules.teams) {
    els.teamScores.replaceChildren(...[0, 1].map((team) => el("span", { class: "team-score", "data-team": team },
      el("span", { text: teamName(state, team) }), el("strong", { text: String(view.scores[team] ?? 0) }))));
  }
  els.ends.textContent = view.ends
    ? format(gettext("Open ends: %(left)s on the left, %(right)s on the right."), { left: view.ends[0], right: view.ends[1] })
    : "";
  const commitment = (state.table && state.table.commitment) || config.commitment;
  if (commitment) {
    els.fairness.hidden = false;
    els.commitment.textContent = commitment;
    els.commitmentShort.textContent = `${commitment.slice(0, 12)}…`;
  }
  if (state.chain) {
    els.chainRow.hidden = false;
    els.chainHead.hidden = false;
    els.chainSeq.textContent = String(state.chain.seq);
    els.chainHead.textContent = state.chain.head;
    els.chainHead.dataset.seq = String(state.chain.seq);
  }
}

// ---------------------------------------------------------------- line

/** @returns {number} */
function maxLineHeight() {
  const phone = window.innerWidth < 700;
  return Math.max(150, Math.round(window.innerHeight * (phone ? 0.36 : 0.5)));
}

/**
 * The line and its glowing ends (also alone: on a resize, a hover, a drag).
 * @param {TableState} state
 */
export function renderLine(state) {
  const view = state.view;
  if (!view) return;
  const width = els.line.clientWidth;
  if (!width) return;
  const layout = fitLine(view.line, {
    width, maxHeight: maxLineHeight(), opener: openerIndex(view.line, view.history),
    max: width >= 900 ? 36 : 30, big: width >= 900 ? 56 : 40,
  });
  els.line.style.setProperty("--u", `${layout.u}px`);
  els.line.style.height = `${layout.height}px`;
  const lastOf = lastTiles(view.history);
  const children = layout.tiles.map((place) => {
    const tile = tileElement(place.a, place.b, { vertical: place.vertical });
    delete tile.dataset.tile; // data-tile marks hand tiles only
    const key = tileKey([place.a, place.b]);
    tile.dataset.lineTile = key;
    tile.classList.toggle("tile--double", place.double);
    if (key in lastOf) {
      // Each player's latest tile stays outlined until their next move.
      tile.dataset.lastSeat = String(lastOf[key]);
      tile.classList.add(isMe(state, lastOf[key]) ? "tile--last-mine" : "tile--last");
    }
    if (state.fresh === key) tile.classList.add("tile--fresh");
    Object.assign(tile.style, { left: `${place.x}px`, top: `${place.y}px`, width: `${place.w}px`, height: `${place.h}px` });
    return tile;
  });
  const key = state.dragging || state.selected;
  /** @type {HTMLElement[]} */
  const spots = [];
  for (const end of legalEnds(state, key)) {
    const slot = layout.slots[end];
    const number = view.ends ? view.ends[end === "left" ? 0 : 1] : null;
    const label = number === null ? gettext("Lay the tile here")
      : format(end === "left" ? gettext("Lay it on the left end (%(number)s)") : gettext("Lay it on the right end (%(number)s)"), { number });
    const spot = el("button", { type: "button", class: "end-slot", "data-end": end, "aria-label": label, title: label });
    Object.assign(spot.style, { left: `${slot.x}px`, top: `${slot.y}px`, width: `${slot.w}px`, height: `${slot.h}px` });
    spots.push(spot);
  }
  // The destination of the tile under the pointer or focus, before it is played.
  if (!key && state.preview && myTurn(state)) {
    for (const end of legalEnds(state, state.preview)) {
      const slot = layout.slots[end];
      const spot = el("div", { class: "end-preview", "data-preview-end": end, "aria-hidden": "true" });
      Object.assign(spot.style, { left: `${slot.x}px`, top: `${slot.y}px`, width: `${slot.w}px`, height: `${slot.h}px` });
      spots.push(spot);
    }
  }
  els.line.replaceChildren(...children, ...spots);
  els.empty.hidden = view.line.length > 0;
  slideIn(state);
  renderMoves(state, view);
}

/**
 * key "a-b" -> seat, for the latest tile each seat laid this round.
 * @param {HistoryEntry[]} history
 * @returns {Record<string, number>}
 */
function lastTiles(history) {
  /** @type {Record<number, string>} */
  const last = {};
  for (const entry of history || []) {
    if (entry.action === "play" && entry.tile) last[entry.seat] = tileKey(entry.tile);
  }
  return Object.fromEntries(Object.entries(last).map(([seat, key]) => [key, Number(seat)]));
}

/**
 * The tile another player just laid slides in from their seat's card.
 * @param {TableState} state
 */
function slideIn(state) {
  const seat = state.freshSeat;
  if (state.fresh === null || seat === null || seat === undefined || isMe(state, seat)) return;
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  /** @type {HTMLElement | null} */
  const tile = els.line.querySelector(`[data-line-tile="${state.fresh}"]`);
  const card = els.players.querySelector(`.player[data-seat="${seat}"]`);
  if (!tile || !card || !tile.animate) return;
  const from = card.getBoundingClientRect();
  const to = tile.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  tile.classList.remove("tile--fresh");
  tile.dataset.slidFrom = String(seat);
  tile.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration: 450, easing: "cubic-bezier(.2, .8, .3, 1)" },
  );
}

/**
 * The moves of this round, in a list that opens (`[data-move-list]`).
 * @param {TableState} state
 * @param {View} view
 */
function renderMoves(state, view) {
  const history = view.history || [];
  const items = history.map((entry) => {
    /** @type {LastAction} */
    const last = entry.action === "play" && entry.tile
      ? { action: "play", tile: entry.tile, end: entry.end, opened: !entry.ends, draws: 0 }
      : { action: entry.action === "draw" ? "draw" : "pass", draws: entry.action === "draw" ? 1 : 0 };
    return el("li", { "data-move-seat": entry.seat }, el("strong", { text: nameOf(state, entry.seat) }), ` ${lastActionText(last)}`);
  });
  $("move-list-items").replaceChildren(...items);
  $("move-list-count").textContent = String(history.length);
}

// ---------------------------------------------------------------- hand

/** @param {TableState} state @param {View} view */
export function renderHand(state, view) {
  els.me.hidden = state.seat === null;
  if (state.seat === null) return;
  const mine = myTurn(state);
  // The tile of the latest hint is marked in the hand (table_hint.js).
  const hinted = state.hint.frame && state.hint.frame.action.type === "play" ? tileKey(state.hint.frame.action.tile) : null;
  const buttons = view.hand.map((tile) => {
    const key = tileKey(tile);
    const ends = legalEnds(state, key);
    const label = ends.length ? format(gettext("Play %(tile)s"), { tile: tileText(tile) }) : tileText(tile);
    const button = el("button", {
      type: "button", class: "hand-tile", "data-tile": key, "data-playable": ends.length > 0,
      "aria-label": label, "aria-disabled": ends.length ? null : "true",
      "aria-pressed": ends.length >= endsToChoose(state) ? String(state.selected === key) : null,
    }, tileSvg(tile[0], tile[1], { vertical: true, label: tileText(tile) }));
    if (state.freshDraw === key) button.classList.add("tile--fresh");
    if (hinted === key) button.classList.add("hand-tile--hinted");
    return button;
  });
  // Keep the keyboard focus on the same tile across redraws.
  const active = document.activeElement;
  /** @type {HTMLElement | null} */
  const focused = active ? active.closest("#hand [data-tile]") : null;
  els.hand.replaceChildren(...buttons);
  if (focused) {
    /** @type {HTMLElement | null} */
    const again = els.hand.querySelector(`[data-tile="${focused.dataset.tile}"]`) || els.hand.querySelector("[data-tile]");
    if (again) again.focus({ preventScroll: true });
  }
  els.hand.classList.toggle("hand--waiting", !mine);
  let hint = "";
  if (mine && state.selected && legalEnds(state, state.selected).length > 1) hint = gettext("It fits both ends: tap a glowing end or drag the tile there.");
  else if (mine && state.selected) hint = gettext("Tap the glowing end to place it.");
  else if (mine && state.confirm && canDo(state, "play")) hint = gettext("Tap a tile, then the glowing end where it goes.");
  else if (mine && canDo(state, "play")) hint = gettext("Tap a tile to play it, or drag it to an end.");
  else if (mine && canDo(state, "draw")) hint = gettext("No tile fits: draw one.");
  else if (mine && canDo(state, "pass")) hint = gettext("No tile fits and the boneyard is empty: pass.");
  els.hint.textContent = hint;
  els.draw.hidden = !canDo(state, "draw");
  els.pass.hidden = !canDo(state, "pass");
  els.resign.hidden = view.game_over;
  const clock = state.clock;
  els.claim.hidden = !(clock && clock.claimable && clock.seat !== state.seat && !view.game_over);
  /** @type {HTMLButtonElement} */ (els.draw).disabled = state.pending;
  /** @type {HTMLButtonElement} */ (els.pass).disabled = state.pending;
}

// ---------------------------------------------------------------- panels

/**
 * @param {TableState} state
 * @param {RoundResult} result
 */
export function roundResultText(state, result) {
  const parts = [];
  if (result.blocked) parts.push(gettext("The line is blocked."));
  const points = pointsText(result.points);
  if (result.winner === null || result.winner === undefined) parts.push(gettext("Nobody scores this round."));
  else if (state.view && state.view.rules.teams && result.team !== null && result.team !== undefined) {
    if (state.seat === null) {
      parts.push(format(gettext("%(first)s and %(second)s win the round: %(points)s."), { ...pairNames(state, result.team), points }));
    } else if (state.seat % 2 === result.team) parts.push(format(gettext("Your pair wins the round: %(points)s."), { points }));
    else parts.push(format(gettext("The opponents win the round: %(points)s."), { points }));
  } else if (isMe(state, result.winner)) parts.push(format(gettext("You win the round: %(points)s."), { points }));
  else parts.push(format(gettext("%(name)s wins the round: %(points)s."), { name: nameOf(state, result.winner), points }));
  return parts.join(" ");
}

/**
 * @param {TableState} state
 * @param {number | null | undefined} winner a seat, or a pair with teams; none for a draw
 */
export function gameResultText(state, winner) {
  const teams = state.view && state.view.rules.teams;
  if (winner === null || winner === undefined) return gettext("The game is a draw.");
  if (teams) {
    if (state.seat === null) return format(gettext("%(first)s and %(second)s win the game."), pairNames(state, winner));
    if (state.seat % 2 === winner) return gettext("Your pair wins the game!");
    return gettext("The opponents win the game.");
  }
  if (isMe(state, winner)) return gettext("You win the game!");
  return format(gettext("%(name)s wins the game."), { name: nameOf(state, winner) });
}

/**
 * The seats whose hands the round's winner scores (games.engine.state.finish_round):
 * every other hand, or with pairs under "opponents" the two opposing hands.
 * @param {Pair[][]} hands
 * @param {RoundResult} result
 * @param {Partial<Rules>} rules
 * @returns {number[]}
 */
function countedSeats(hands, result, rules) {
  const winner = result.winner;
  if (winner === null || winner === undefined) return [];
  return hands.map((_hand, seat) => seat).filter((seat) => {
    if (rules.teams && rules.team_scoring === "opponents") return seat % 2 !== winner % 2;
    return seat !== winner;
  });
}

/**
 * Why the round scored what it did: each hand and its pips, whose hand was
 * lightest (a blocked round) or who went out, and the sum that was scored.
 * @param {TableState} state
 * @param {Pair[][] | null | undefined} hands
 * @param {RoundResult | null | undefined} result
 * @returns {HTMLElement[]}
 */
function handsBlock(state, hands, result) {
  if (!hands) return [];
  /** @type {Partial<Rules>} */
  const rules = (state.view && state.view.rules) || {};
  const pips = hands.map((hand) => hand.reduce((sum, [a, b]) => sum + a + b, 0));
  const counted = result ? countedSeats(hands, result, rules) : [];
  const rows = hands.map((hand, seat) => {
    const tiles = el("span", { class: "panel-tiles" }, ...hand.map(([a, b]) => {
      const tile = tileElement(a, b);
      delete tile.dataset.tile;
      return tile;
    }));
    if (!hand.length) tiles.append(el("em", { text: gettext("no tiles left") }));
    const winner = Boolean(result && result.winner === seat);
    let note = "";
    if (result && winner) note = result.blocked ? gettext("lightest hand") : gettext("went out");
    else if (counted.includes(seat)) note = gettext("counted");
    return el("div", {
      class: "panel-hand", "data-seat": seat, "data-pips": pips[seat],
      "data-counted": counted.includes(seat), "data-round-winner": winner,
    },
    el("span", { class: "panel-hand-name", text: nameOf(state, seat) }),
    el("span", { class: "panel-hand-pips", text: pipsText(pips[seat]) }),
    note ? el("span", { class: "badge panel-hand-note", text: note }) : null,
    tiles);
  });
  if (!result) return rows;
  const winner = result.winner;
  // The sum: "12 + 7 + 4 = 23 points", read from the hands the winner scores.
  let sum = null;
  if (winner !== null && winner !== undefined) {
    const terms = counted.map((seat) => pips[seat]);
    const total = terms.reduce((a, b) => a + b, 0);
    if (total === result.points) {
      const team = state.view && state.view.rules.teams ? result.team : null;
      let template = gettext("Points of %(who)s: %(sum)s = %(points)s.");
      let who = team !== null && team !== undefined ? teamName(state, team) : nameOf(state, winner);
      if (team !== null && team !== undefined && state.seat !== null) {
        template = state.seat % 2 === team
          ? gettext("Your pair's points: %(sum)s = %(points)s.") : gettext("The opponents' points: %(sum)s = %(points)s.");
      } else if ((team === null || team === undefined) && isMe(state, winner)) template = gettext("Your points: %(sum)s = %(points)s.");
      if (team !== null && team !== undefined && state.seat === null) who = format(gettext("%(first)s and %(second)s"), pairNames(state, team));
      sum = el("p", { class: "panel-sum", "data-round-sum": result.points }, format(template, {
        who, sum: terms.length ? terms.join(" + ") : "0", points: pointsText(result.points),
      }));
    }
  } else if (result.blocked) {
    sum = el("p", { class: "panel-sum", text: gettext("The lightest hands tie: nobody scores.") });
  }
  let why = null;
  if (result.blocked && winner !== null && winner !== undefined) {
    const values = { name: nameOf(state, winner), pips: pipsText(pips[winner]) };
    why = el("p", { class: "panel-why" }, isMe(state, winner)
      ? format(gettext("Nobody can play: the lightest hand wins the round, yours with %(pips)s."), values)
      : format(gettext("Nobody can play: the lightest hand wins the round, that of %(name)s with %(pips)s."), values));
  } else if (!result.blocked && winner !== null && winner !== undefined) {
    why = el("p", { class: "panel-why" }, isMe(state, winner)
      ? gettext("You laid your last tile: domino!")
      : format(gettext("%(name)s laid their last tile: domino!"), { name: nameOf(state, winner) }));
  }
  return [el("div", { class: "panel-breakdown", "data-round-breakdown": true }, why, ...rows, sum)];
}

/**
 * @param {TableState} state
 * @param {number[]} scores
 * @param {number | null | undefined} winner
 */
function scoresBlock(state, scores, winner) {
  const teams = state.view && state.view.rules.teams;
  const rows = scores.map((score, index) => el("tr", { "data-winner": index === winner },
    el("th", { scope: "row", text: teams ? teamName(state, index) : nameOf(state, index) }), el("td", { text: String(score) })));
  return [el("table", { class: "scores" },
    el("caption", { text: gettext("Scores") }), el("tbody", {}, ...rows))];
}

/** @param {TableState} state @param {View} view */
export function renderPanels(state, view) {
  const gameOver = Boolean(view.game_over || state.gameFrame);
  const roundOver = !gameOver && Boolean(view.round_over);
  els.roundOver.hidden = !roundOver;
  if (roundOver) {
    const frame = state.roundFrame;
    const result = (frame && frame.result) || view.round_result;
    $("round-over-result").textContent = result ? roundResultText(state, result) : "";
    $("round-over-hands").replaceChildren(...handsBlock(state, frame && frame.hands, result));
    $("round-over-scores").replaceChildren(...scoresBlock(state, (frame && frame.scores) || view.scores, null));
    const next = find(els.roundOver, '[data-action="next_round"]');
    next.hidden = state.nextRoundSent || !canDo(state, "next_round");
    $("round-over-wait").hidden = !next.hidden;
  }
  els.gameOver.hidden = !gameOver;
  els.gameOver.toggleAttribute("data-game-over", gameOver);
  if (gameOver) {
    const frame = state.gameFrame;
    const winner = frame ? frame.winner : view.winner;
    const round = state.roundFrame;
    const result = (round && round.result) || view.round_result;
    const resigned = frame ? frame.resigned : view.resigned;
    const reason = frame ? frame.reason : view.end_reason;
    const parts = [gameResultText(state, winner)];
    if (resigned !== null && resigned !== undefined) {
      parts.unshift(isMe(state, resigned) ? gettext("You resigned.") : format(gettext("%(name)s resigned."), { name: nameOf(state, resigned) }));
    } else if (reason === "agreed_draw") parts.unshift(gettext("The players agreed to a draw."));
    else if (result) parts.unshift(roundResultText(state, result));
    if (frame && frame.aborted) {
      parts.push(gettext("Aborted: the game ended before any tile beyond the opening, so it counts for nothing (not rated, no experience, stakes returned)."));
    }
    $("game-over-result").textContent = parts.join(" ");
    els.gameOver.toggleAttribute("data-aborted", Boolean(frame && frame.aborted));
    const hands = round && round.hands;
    $("game-over-hands").replaceChildren(...handsBlock(state, hands, hands ? result : null));
    $("game-over-scores").replaceChildren(...scoresBlock(state, (frame && frame.scores) || view.scores, winner));
    renderRatings(state);
    renderRematch(state);
    els.gameOver.classList.toggle("panel--collapsed", state.panelCollapsed);
    const toggle = find(els.gameOver, '[data-action="toggle-panel"]');
    toggle.textContent = state.panelCollapsed ? gettext("Show the results") : gettext("Hide the results");
    toggle.setAttribute("aria-expanded", String(!state.panelCollapsed));
  }
}

/**
 * Who asked for a rematch, who is awaited; the button says what a tap does.
 * @param {TableState} state
 */
function renderRematch(state) {
  const status = $("rematch-status");
  /** @type {HTMLButtonElement | null} */
  const button = els.gameOver.querySelector("[data-rematch]");
  const rematch = state.rematch;
  /** @param {number[]} seats */
  const names = (seats) => seats.map((seat) => nameOf(state, seat)).join(", ");
  if (button) {
    button.textContent = gettext("Rematch");
    button.disabled = false;
  }
  if (!rematch || !rematch.seats || !rematch.seats.length) {
    status.hidden = true;
    return;
  }
  status.hidden = false;
  const mine = state.seat !== null && rematch.seats.includes(state.seat);
  if (rematch.url) {
    status.replaceChildren(el("a", { href: rematch.url, "data-watch-rematch": true, text: gettext("Go to the rematch") }));
    return;
  }
  if (mine) {
    status.textContent = format(gettext("Rematch asked: waiting for %(names)s."), { names: names(rematch.waiting || []) });
    if (button) button.disabled = true;
  } else {
    status.textContent = format(
      ngettext("%(names)s asks for a rematch.", "%(names)s ask for a rematch.", rematch.seats.length),
      { names: names(rematch.seats) },
    );
    if (button) button.textContent = gettext("Accept the rematch");
  }
}

/**
 * "+15", "−8", "±0": a rating change.
 * @param {number} delta
 */
export function signed(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${Math.abs(delta)}`;
  return "\u00b10";
}

/**
 * The new ratings after a ranked game (a `ratings` frame, or ratings.json).
 * @param {TableState} state
 */
function renderRatings(state) {
  const box = $("game-over-ratings");
  const changes = state.ratings || [];
  box.hidden = !changes.length;
  if (!changes.length) return;
  const rows = changes.map((change) => el("li", {
    "data-rating-seat": change.seat, class: isMe(state, change.seat) ? "is-me" : null,
  }, el("span", { text: isMe(state, change.seat) ? gettext("Your rating") : nameOf(state, change.seat) }), " ",
  el("strong", { "data-rating-after": change.after, text: `${change.after}${change.provisional ? "?" : ""}` }), " ",
  el("span", {
    "data-rating-delta": change.delta, class: change.delta >= 0 ? "delta-up" : "delta-down", text: `(${signed(change.delta)})`,
  }),
  // A repeated game of the same players within a day counts 1/k (docs/members.md).
  change.weight && change.weight < 1 ? el("span", {
    class: "muted small", "data-rating-weight": change.weight,
    text: ` ${format(gettext("repeated game: counts 1/%(k)s"), { k: Math.round(1 / change.weight) })}`,
  }) : null));
  box.replaceChildren(el("h3", { text: gettext("New ratings") }), el("ul", {}, ...rows));
}

/** Count down the turn timers drawn by playerCard (m:ss, from the server's deadline). */
export function tickClocks() {
  for (const node of document.querySelectorAll("[data-deadline]")) {
    if (!(node instanceof HTMLElement)) continue;
    const left = Math.max(0, Math.ceil((Number(node.dataset.deadline) - Date.now()) / 1000));
    node.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    node.classList.toggle("player-clock--short", left <= 10);
  }
}

/**
 * Draw the whole page from `state`.
 * @param {TableState} state
 */
export function render(state) {
  const view = state.view;
  if (!view) {
    els.status.textContent = gettext("Waiting for the players to sit down…");
    els.me.hidden = true;
    return;
  }
  renderStatus(state, view);
  renderPlayers(state, view);
  renderLine(state);
  renderHand(state, view);
  renderPanels(state, view);
  renderReactions(state);
  renderHint(state);
  tickClocks();
}

/**
 * The quick reactions: for a person seated with another person at the table.
 * @param {TableState} state
 */
function renderReactions(state) {
  const others = state.players.some((player) => player.kind === "human" && !isMe(state, player.seat));
  els.reactions.hidden = !(state.seat !== null && others && state.reactions.length);
  if (els.reactions.hidden || els.reactionButtons.childElementCount) return;
  els.reactionButtons.replaceChildren(...state.reactions.map((id) => el("button", {
    type: "button", class: "button small secondary", "data-react": id, text: reactionText(id),
  })));
}

// ---------------------------------------------------------------- feedback

/** @param {string} text read out by the polite live region */
export function announce(text) {
  if (!text) return;
  els.announcer.append(el("p", { text }));
  while (els.announcer.childElementCount > 4) els.announcer.firstElementChild?.remove();
}

/** @param {string} text */
export function toast(text) {
  const node = el("div", { class: "toast", role: "alert", text });
  els.toasts.append(node);
  setTimeout(() => node.remove(), 4000);
}

/** @param {"connecting" | "open" | "reconnecting" | "closed"} stateName */
export function setConnection(stateName) {
  els.table.dataset.connection = stateName;
  const texts = {
    connecting: gettext("Connecting…"),
    open: "",
    reconnecting: gettext("Connection lost: reconnecting…"),
    closed: gettext("Disconnected."),
  };
  els.connection.textContent = texts[stateName] ?? "";
}
