// Drawing the table from the latest state: players, status, the line, the
// hand, the round-over and game-over panels, and the feedback (announcements
// for screen readers, toasts, the connection line).
import { tileElement, tileSvg } from "../../js/tiles.js";
import { fitLine, openerIndex } from "./line_layout.js";
import {
  $, app, config, el, els, endsToChoose, isMe, keyOf, legalEnds, myTurn, nameOf, pairNames, playerInfo, ratingsHidden,
  teamName,
} from "./table_state.js";
import {
  format, gettext, lastActionText, levelText, ngettext, pipsText, pointsText, reactionText, tileText,
} from "./table_texts.js";

// ---------------------------------------------------------------- history

/** Each seat's latest doing this round, from the view's public history. */
function lastActions(history) {
  const last = {};
  let previous = null;
  for (const entry of history || []) {
    const running = previous && previous.seat === entry.seat && previous.action === "draw";
    const draws = running ? last[entry.seat].draws : 0;
    if (entry.action === "draw") last[entry.seat] = { action: "draw", draws: draws + 1 };
    else if (entry.action === "pass") last[entry.seat] = { action: "pass", draws };
    else last[entry.seat] = { action: "play", tile: entry.tile, end: entry.end, opened: !entry.ends, draws };
    previous = entry;
  }
  return last;
}

// ---------------------------------------------------------------- players

function handBacks(count) {
  const backs = el("span", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(count, 7); i += 1) backs.append(el("i"));
  return backs;
}

function playerCard(seat, view, last, node = el("li")) {
  const info = playerInfo(seat);
  const count = view.hand_counts[seat] ?? 0;
  node.className = "player";
  node.dataset.seat = seat;
  node.toggleAttribute("data-turn", view.to_move === seat);
  if (view.to_move === seat) node.setAttribute("aria-current", "true");
  else node.removeAttribute("aria-current");
  const name = el("span", { class: "player-name", text: nameOf(seat) });
  const rating = ratingsHidden() ? null : app.seatRatings[seat];
  if (rating) {
    name.append(el("span", {
      class: "player-rating", "data-seat-rating": rating.rating, text: ` ${rating.rating}${rating.provisional ? "?" : ""}`,
    }));
  }
  if (info.kind === "computer") name.append(el("span", { class: "badge", text: levelText(info.level) || gettext("computer") }));
  if (view.rules.teams && app.seat !== null && !isMe(seat) && seat % 2 === app.seat % 2) {
    name.append(el("span", { class: "badge badge--partner", text: gettext("partner") }));
  }
  const clock = app.clock;
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
  const bubble = app.bubbles[seat];
  if (bubble && bubble.until > Date.now()) {
    node.append(el("span", { class: "reaction-bubble", "data-reaction-bubble": bubble.id, text: reactionText(bubble.id) }));
  }
  return node;
}

export function renderPlayers(view) {
  const count = view.hand_counts.length;
  const last = lastActions(view.history);
  const first = app.seat === null ? 0 : app.seat + 1;
  const others = [];
  for (let i = 0; i < count; i += 1) {
    const seat = (first + i) % count;
    if (!isMe(seat)) others.push(playerCard(seat, view, last));
  }
  els.players.replaceChildren(...others);
  els.players.dataset.count = others.length;
  if (app.seat !== null) playerCard(app.seat, view, last, els.mePlayer);
  els.mePlayer.hidden = app.seat === null;
}

// ---------------------------------------------------------------- status

export function renderStatus(view) {
  let status;
  if (view.game_over) status = gettext("Game over");
  else if (view.round_over) status = gettext("Round over");
  else if (view.to_move === null || view.to_move === undefined) status = "";
  else if (isMe(view.to_move)) {
    status = app.selected ? gettext("Your turn: choose an end for the tile.") : gettext("Your turn");
  } else status = format(gettext("%(name)s to play"), { name: nameOf(view.to_move) });
  els.status.textContent = status;
  els.table.toggleAttribute("data-my-turn", myTurn());
  els.table.toggleAttribute("data-pending", app.pending);
  els.round.textContent = format(gettext("Round %(number)s"), { number: view.round });
  els.boneyard.hidden = !view.rules.draw;
  els.boneyard.textContent = format(gettext("Boneyard: %(count)s"), { count: view.boneyard_count });
  els.target.textContent = view.rules.target
    ? format(gettext("Game to %(points)s"), { points: view.rules.target })
    : gettext("Single round");
  const watching = app.table && app.table.spectators;
  els.spectators.hidden = !watching;
  if (watching) els.spectators.textContent = format(ngettext("%(count)s watching", "%(count)s watching", watching), { count: watching });
  els.teamScores.hidden = !view.rules.teams;
  if (view.rules.teams) {
    els.teamScores.replaceChildren(...[0, 1].map((team) => el("span", { class: "team-score", "data-team": team },
      el("span", { text: teamName(team) }), el("strong", { text: String(view.scores[team] ?? 0) }))));
  }
  els.ends.textContent = view.ends
    ? format(gettext("Open ends: %(left)s on the left, %(right)s on the right."), { left: view.ends[0], right: view.ends[1] })
    : "";
  const commitment = (app.table && app.table.commitment) || config.commitment;
  if (commitment) {
    els.fairness.hidden = false;
    els.commitment.textContent = commitment;
    els.commitmentShort.textContent = `${commitment.slice(0, 12)}…`;
  }
  if (app.chain && els.chainHead) {
    els.chainRow.hidden = false;
    els.chainHead.hidden = false;
    els.chainSeq.textContent = String(app.chain.seq);
    els.chainHead.textContent = app.chain.head;
    els.chainHead.dataset.seq = String(app.chain.seq);
  }
}

// ---------------------------------------------------------------- line

function maxLineHeight() {
  const phone = window.innerWidth < 700;
  return Math.max(150, Math.round(window.innerHeight * (phone ? 0.36 : 0.5)));
}

export function renderLine() {
  const view = app.view;
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
    const key = keyOf([place.a, place.b]);
    tile.dataset.lineTile = key;
    tile.classList.toggle("tile--double", place.double);
    if (key in lastOf) {
      // Each player's latest tile stays outlined until their next move.
      tile.dataset.lastSeat = lastOf[key];
      tile.classList.add(isMe(lastOf[key]) ? "tile--last-mine" : "tile--last");
    }
    if (app.fresh === key) tile.classList.add("tile--fresh");
    Object.assign(tile.style, { left: `${place.x}px`, top: `${place.y}px`, width: `${place.w}px`, height: `${place.h}px` });
    return tile;
  });
  const key = (app.drag && app.drag.moved && app.drag.key) || app.selected;
  const glowing = key ? legalEnds(key) : [];
  for (const end of new Set(glowing)) {
    const slot = layout.slots[end];
    const number = view.ends ? view.ends[end === "left" ? 0 : 1] : null;
    const label = number === null ? gettext("Lay the tile here")
      : format(end === "left" ? gettext("Lay it on the left end (%(number)s)") : gettext("Lay it on the right end (%(number)s)"), { number });
    const spot = el("button", { type: "button", class: "end-slot", "data-end": end, "aria-label": label, title: label });
    Object.assign(spot.style, { left: `${slot.x}px`, top: `${slot.y}px`, width: `${slot.w}px`, height: `${slot.h}px` });
    children.push(spot);
  }
  // The destination of the tile under the pointer or focus, before it is played.
  if (!key && app.preview && myTurn()) {
    for (const end of new Set(legalEnds(app.preview))) {
      const slot = layout.slots[end];
      const spot = el("div", { class: "end-preview", "data-preview-end": end, "aria-hidden": "true" });
      Object.assign(spot.style, { left: `${slot.x}px`, top: `${slot.y}px`, width: `${slot.w}px`, height: `${slot.h}px` });
      children.push(spot);
    }
  }
  els.line.replaceChildren(...children);
  els.empty.hidden = view.line.length > 0;
  slideIn();
  renderMoves(view);
}

/** key "a-b" -> seat, for the latest tile each seat laid this round. */
function lastTiles(history) {
  const last = {};
  for (const entry of history || []) {
    if (entry.action === "play" && entry.tile) last[entry.seat] = keyOf(entry.tile);
  }
  return Object.fromEntries(Object.entries(last).map(([seat, key]) => [key, Number(seat)]));
}

/** The tile another player just laid slides in from their seat's card. */
function slideIn() {
  const seat = app.freshSeat;
  if (app.fresh === null || seat === null || seat === undefined || isMe(seat)) return;
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const tile = els.line.querySelector(`[data-line-tile="${app.fresh}"]`);
  const card = els.players.querySelector(`.player[data-seat="${seat}"]`);
  if (!tile || !card || !tile.animate) return;
  const from = card.getBoundingClientRect();
  const to = tile.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  tile.classList.remove("tile--fresh");
  tile.dataset.slidFrom = seat;
  tile.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration: 450, easing: "cubic-bezier(.2, .8, .3, 1)" },
  );
}

/** The moves of this round, in a list that opens (`[data-move-list]`). */
function renderMoves(view) {
  const list = $("move-list");
  if (!list) return;
  const history = view.history || [];
  const items = history.map((entry) => {
    const last = entry.action === "play"
      ? { action: "play", tile: entry.tile, end: entry.end, opened: !entry.ends, draws: 0 }
      : { action: entry.action, draws: entry.action === "draw" ? 1 : 0 };
    return el("li", { "data-move-seat": entry.seat }, el("strong", { text: nameOf(entry.seat) }), ` ${lastActionText(last)}`);
  });
  $("move-list-items").replaceChildren(...items);
  $("move-list-count").textContent = String(history.length);
}

// ---------------------------------------------------------------- hand

export function renderHand(view) {
  els.me.hidden = app.seat === null;
  if (app.seat === null) return;
  const mine = myTurn();
  const buttons = view.hand.map((tile) => {
    const key = keyOf(tile);
    const ends = legalEnds(key);
    const label = ends.length ? format(gettext("Play %(tile)s"), { tile: tileText(tile) }) : tileText(tile);
    const button = el("button", {
      type: "button", class: "hand-tile", "data-tile": key, "data-playable": ends.length > 0,
      "aria-label": label, "aria-disabled": ends.length ? null : "true",
      "aria-pressed": ends.length >= endsToChoose() ? String(app.selected === key) : null,
    }, tileSvg(tile[0], tile[1], { vertical: true, label: tileText(tile) }));
    if (app.freshDraw === key) button.classList.add("tile--fresh");
    return button;
  });
  // Keep the keyboard focus on the same tile across redraws.
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand [data-tile]");
  els.hand.replaceChildren(...buttons);
  if (focused) {
    const again = els.hand.querySelector(`[data-tile="${focused.dataset.tile}"]`) || els.hand.querySelector("[data-tile]");
    if (again) again.focus({ preventScroll: true });
  }
  els.hand.classList.toggle("hand--waiting", !mine);
  let hint = "";
  if (mine && app.selected && legalEnds(app.selected).length > 1) hint = gettext("It fits both ends: tap a glowing end or drag the tile there.");
  else if (mine && app.selected) hint = gettext("Tap the glowing end to place it.");
  else if (mine && app.confirm && app.legal.some((action) => action.type === "play")) hint = gettext("Tap a tile, then the glowing end where it goes.");
  else if (mine && app.legal.some((action) => action.type === "play")) hint = gettext("Tap a tile to play it, or drag it to an end.");
  else if (mine && app.legal.some((action) => action.type === "draw")) hint = gettext("No tile fits: draw one.");
  else if (mine && app.legal.some((action) => action.type === "pass")) hint = gettext("No tile fits and the boneyard is empty: pass.");
  els.hint.textContent = hint;
  els.draw.hidden = !app.legal.some((action) => action.type === "draw");
  els.pass.hidden = !app.legal.some((action) => action.type === "pass");
  els.resign.hidden = view.game_over;
  const clock = app.clock;
  els.claim.hidden = !(clock && clock.claimable && clock.seat !== app.seat && !view.game_over);
  els.draw.disabled = app.pending;
  els.pass.disabled = app.pending;
}

// ---------------------------------------------------------------- panels

export function roundResultText(result) {
  const parts = [];
  if (result.blocked) parts.push(gettext("The line is blocked."));
  const points = pointsText(result.points);
  if (result.winner === null || result.winner === undefined) parts.push(gettext("Nobody scores this round."));
  else if (app.view && app.view.rules.teams && result.team !== null && result.team !== undefined) {
    if (app.seat === null) {
      parts.push(format(gettext("%(first)s and %(second)s win the round: %(points)s."), { ...pairNames(result.team), points }));
    } else if (app.seat % 2 === result.team) parts.push(format(gettext("Your pair wins the round: %(points)s."), { points }));
    else parts.push(format(gettext("The opponents win the round: %(points)s."), { points }));
  } else if (isMe(result.winner)) parts.push(format(gettext("You win the round: %(points)s."), { points }));
  else parts.push(format(gettext("%(name)s wins the round: %(points)s."), { name: nameOf(result.winner), points }));
  return parts.join(" ");
}

export function gameResultText(winner) {
  const teams = app.view && app.view.rules.teams;
  if (winner === null || winner === undefined) return gettext("The game is a draw.");
  if (teams) {
    if (app.seat === null) return format(gettext("%(first)s and %(second)s win the game."), pairNames(winner));
    if (app.seat % 2 === winner) return gettext("Your pair wins the game!");
    return gettext("The opponents win the game.");
  }
  if (isMe(winner)) return gettext("You win the game!");
  return format(gettext("%(name)s wins the game."), { name: nameOf(winner) });
}

/** The seats whose hands the round's winner scores (games.engine.state.finish_round):
 * every other hand, or with pairs under "opponents" the two opposing hands. */
function countedSeats(hands, result, rules) {
  if (result.winner === null || result.winner === undefined) return [];
  return hands.map((_hand, seat) => seat).filter((seat) => {
    if (rules.teams && rules.team_scoring === "opponents") return seat % 2 !== result.winner % 2;
    return seat !== result.winner;
  });
}

/** Why the round scored what it did: each hand and its pips, whose hand was
 * lightest (a blocked round) or who went out, and the sum that was scored. */
function handsBlock(hands, result) {
  if (!hands) return [];
  const rules = (app.view && app.view.rules) || {};
  const pips = hands.map((hand) => hand.reduce((sum, [a, b]) => sum + a + b, 0));
  const counted = result ? countedSeats(hands, result, rules) : [];
  const rows = hands.map((hand, seat) => {
    const tiles = el("span", { class: "panel-tiles" }, ...hand.map(([a, b]) => {
      const tile = tileElement(a, b);
      delete tile.dataset.tile;
      return tile;
    }));
    if (!hand.length) tiles.append(el("em", { text: gettext("no tiles left") }));
    const winner = result && result.winner === seat;
    let note = "";
    if (winner) note = result.blocked ? gettext("lightest hand") : gettext("went out");
    else if (counted.includes(seat)) note = gettext("counted");
    return el("div", {
      class: "panel-hand", "data-seat": seat, "data-pips": pips[seat],
      "data-counted": counted.includes(seat), "data-round-winner": Boolean(winner),
    },
    el("span", { class: "panel-hand-name", text: nameOf(seat) }),
    el("span", { class: "panel-hand-pips", text: pipsText(pips[seat]) }),
    note ? el("span", { class: "badge panel-hand-note", text: note }) : null,
    tiles);
  });
  if (!result) return rows;
  // The sum: "12 + 7 + 4 = 23 points", read from the hands the winner scores.
  let sum = null;
  if (result.winner !== null && result.winner !== undefined) {
    const terms = counted.map((seat) => pips[seat]);
    const total = terms.reduce((a, b) => a + b, 0);
    if (total === result.points) {
      const teams = Boolean(app.view && app.view.rules.teams && result.team !== null && result.team !== undefined);
      let template = gettext("Points of %(who)s: %(sum)s = %(points)s.");
      let who = teams ? teamName(result.team) : nameOf(result.winner);
      if (teams && app.seat !== null) {
        template = app.seat % 2 === result.team
          ? gettext("Your pair's points: %(sum)s = %(points)s.") : gettext("The opponents' points: %(sum)s = %(points)s.");
      } else if (!teams && isMe(result.winner)) template = gettext("Your points: %(sum)s = %(points)s.");
      if (teams && app.seat === null) who = format(gettext("%(first)s and %(second)s"), pairNames(result.team));
      sum = el("p", { class: "panel-sum", "data-round-sum": result.points }, format(template, {
        who, sum: terms.length ? terms.join(" + ") : "0", points: pointsText(result.points),
      }));
    }
  } else if (result.blocked) {
    sum = el("p", { class: "panel-sum", text: gettext("The lightest hands tie: nobody scores.") });
  }
  let why = null;
  if (result.blocked && result.winner !== null && result.winner !== undefined) {
    const values = { name: nameOf(result.winner), pips: pipsText(pips[result.winner]) };
    why = el("p", { class: "panel-why" }, isMe(result.winner)
      ? format(gettext("Nobody can play: the lightest hand wins the round, yours with %(pips)s."), values)
      : format(gettext("Nobody can play: the lightest hand wins the round, that of %(name)s with %(pips)s."), values));
  } else if (!result.blocked && result.winner !== null && result.winner !== undefined) {
    why = el("p", { class: "panel-why" }, isMe(result.winner)
      ? gettext("You laid your last tile: domino!")
      : format(gettext("%(name)s laid their last tile: domino!"), { name: nameOf(result.winner) }));
  }
  return [el("div", { class: "panel-breakdown", "data-round-breakdown": true }, why, ...rows, sum)];
}

function scoresBlock(scores, winner) {
  const teams = app.view && app.view.rules.teams;
  const rows = scores.map((score, index) => el("tr", { "data-winner": index === winner },
    el("th", { scope: "row", text: teams ? teamName(index) : nameOf(index) }), el("td", { text: String(score) })));
  return [el("table", { class: "scores" },
    el("caption", { text: gettext("Scores") }), el("tbody", {}, ...rows))];
}

export function renderPanels(view) {
  const gameOver = Boolean(view.game_over || app.gameFrame);
  const roundOver = !gameOver && Boolean(view.round_over);
  els.roundOver.hidden = !roundOver;
  if (roundOver) {
    const frame = app.roundFrame;
    const result = (frame && frame.result) || view.round_result;
    $("round-over-result").textContent = result ? roundResultText(result) : "";
    $("round-over-hands").replaceChildren(...handsBlock(frame && frame.hands, result));
    $("round-over-scores").replaceChildren(...scoresBlock((frame && frame.scores) || view.scores, null));
    const next = els.roundOver.querySelector('[data-action="next_round"]');
    next.hidden = app.nextRoundSent || !app.legal.some((action) => action.type === "next_round");
    $("round-over-wait").hidden = !next.hidden;
  }
  els.gameOver.hidden = !gameOver;
  els.gameOver.toggleAttribute("data-game-over", gameOver);
  if (gameOver) {
    const frame = app.gameFrame;
    const winner = frame ? frame.winner : view.winner;
    const round = app.roundFrame || {};
    const result = round.result || view.round_result;
    const resigned = frame ? frame.resigned : view.resigned;
    const reason = frame ? frame.reason : view.end_reason;
    const parts = [gameResultText(winner)];
    if (resigned !== null && resigned !== undefined) {
      parts.unshift(isMe(resigned) ? gettext("You resigned.") : format(gettext("%(name)s resigned."), { name: nameOf(resigned) }));
    } else if (reason === "agreed_draw") parts.unshift(gettext("The players agreed to a draw."));
    else if (result) parts.unshift(roundResultText(result));
    $("game-over-result").textContent = parts.join(" ");
    $("game-over-hands").replaceChildren(...handsBlock(round.hands, round.hands ? result : null));
    $("game-over-scores").replaceChildren(...scoresBlock((frame && frame.scores) || view.scores, winner));
    renderRatings();
    renderRematch();
    els.gameOver.classList.toggle("panel--collapsed", app.panelCollapsed);
    const toggle = els.gameOver.querySelector('[data-action="toggle-panel"]');
    toggle.textContent = app.panelCollapsed ? gettext("Show the results") : gettext("Hide the results");
    toggle.setAttribute("aria-expanded", String(!app.panelCollapsed));
  }
}

/** Who asked for a rematch, who is awaited; the button says what a tap does. */
function renderRematch() {
  const status = $("rematch-status");
  const button = els.gameOver.querySelector("[data-rematch]");
  const rematch = app.rematch;
  const names = (seats) => seats.map(nameOf).join(", ");
  if (button) {
    button.textContent = gettext("Rematch");
    button.disabled = false;
  }
  if (!rematch || !rematch.seats || !rematch.seats.length) {
    status.hidden = true;
    return;
  }
  status.hidden = false;
  const mine = app.seat !== null && rematch.seats.includes(app.seat);
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

/** "+15", "−8", "±0": a rating change. */
export function signed(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${Math.abs(delta)}`;
  return "\u00b10";
}

/** The new ratings after a ranked game (a `ratings` frame, or ratings.json). */
function renderRatings() {
  const box = $("game-over-ratings");
  const changes = app.ratings || [];
  box.hidden = !changes.length;
  if (!changes.length) return;
  const rows = changes.map((change) => el("li", {
    "data-rating-seat": change.seat, class: isMe(change.seat) ? "is-me" : null,
  }, el("span", { text: isMe(change.seat) ? gettext("Your rating") : nameOf(change.seat) }), " ",
  el("strong", { "data-rating-after": change.after, text: `${change.after}${change.provisional ? "?" : ""}` }), " ",
  el("span", {
    "data-rating-delta": change.delta, class: change.delta >= 0 ? "delta-up" : "delta-down", text: `(${signed(change.delta)})`,
  })));
  box.replaceChildren(el("h3", { text: gettext("New ratings") }), el("ul", {}, ...rows));
}

/** Count down the turn timers drawn by playerCard (m:ss, from the server's deadline). */
export function tickClocks() {
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Number(node.dataset.deadline) - Date.now()) / 1000));
    node.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    node.classList.toggle("player-clock--short", left <= 10);
  }
}

export function render() {
  const view = app.view;
  if (!view) {
    els.status.textContent = gettext("Waiting for the players to sit down…");
    els.me.hidden = true;
    return;
  }
  renderStatus(view);
  renderPlayers(view);
  renderLine();
  renderHand(view);
  renderPanels(view);
  renderReactions();
  tickClocks();
}

/** The quick reactions: for a person seated with another person at the table. */
function renderReactions() {
  const others = app.players.some((player) => player.kind === "human" && !isMe(player.seat));
  els.reactions.hidden = !(app.seat !== null && others && (config.reactions || []).length);
  if (els.reactions.hidden || els.reactionButtons.childElementCount) return;
  els.reactionButtons.replaceChildren(...config.reactions.map((id) => el("button", {
    type: "button", class: "button small secondary", "data-react": id, text: reactionText(id),
  })));
}

// ---------------------------------------------------------------- feedback

export function announce(text) {
  if (!text) return;
  els.announcer.append(el("p", { text }));
  while (els.announcer.childElementCount > 4) els.announcer.firstElementChild.remove();
}

export function toast(text) {
  const node = el("div", { class: "toast", role: "alert", text });
  els.toasts.append(node);
  setTimeout(() => node.remove(), 4000);
}

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

