// Replay stepper: shows any step of a finished game from the steps the
// server computed with the engine (all hands shown).
import { tileElement, tileKey } from "../../js/tiles.js";
import { fitLine } from "../../games/js/line_layout.js";

/**
 * A step of the game (accounts.replays): what the table showed after a move.
 * @typedef {object} Step
 * @property {string} label
 * @property {number} round
 * @property {number[]} scores
 * @property {number} boneyard
 * @property {[number, number][]} line
 * @property {number} opener
 * @property {[number, number][][]} hands
 * @property {number | null} to_move
 */

const root = /** @type {HTMLElement} */ (document.querySelector("[data-replay]"));
/** @type {Step[]} */
const steps = JSON.parse(document.getElementById("replay-steps")?.textContent || "[]");
let index = steps.length - 1;
/** @type {number | null} */
let timer = null;

/**
 * @param {string} selector
 * @returns {HTMLElement}
 */
const $ = (selector) => {
  const node = root.querySelector(selector);
  if (!(node instanceof HTMLElement)) throw new Error(`the replay page has no ${selector}`);
  return node;
};

/**
 * The line laid out as at the table: a centred snake on the felt (line_layout.js).
 * @param {[number, number][]} pairs
 * @param {number} opener
 */
function line(pairs, opener) {
  const board = document.createElement("div");
  board.className = "replay-board";
  board.dataset.replayBoard = "";
  const box = document.createElement("div");
  box.className = "replay-line";
  board.appendChild(box);
  const width = Math.max(200, ($("[data-replay-line]").clientWidth || 600) - 12);
  const layout = fitLine(pairs, {
    width, maxHeight: Math.max(160, Math.round(window.innerHeight * 0.4)), opener: Math.min(opener || 0, Math.max(0, pairs.length - 1)),
    max: width >= 900 ? 36 : 30, big: width >= 900 ? 48 : 40,
  });
  box.style.height = `${layout.height}px`;
  for (const place of layout.tiles) {
    const tile = tileElement(place.a, place.b, { vertical: place.vertical });
    tile.dataset.replayTile = tileKey([place.a, place.b]);
    Object.assign(tile.style, { left: `${place.x}px`, top: `${place.y}px`, width: `${place.w}px`, height: `${place.h}px` });
    box.appendChild(tile);
  }
  return board;
}

function render() {
  const step = steps[index];
  $("[data-replay-index]").textContent = String(index + 1);
  $("[data-replay-label]").textContent = step.label;
  $("[data-replay-round]").textContent = String(step.round);
  $("[data-replay-scores]").textContent = step.scores.join(" – ");
  const boneyard = root.querySelector("[data-replay-boneyard]");
  if (boneyard) boneyard.textContent = String(step.boneyard);
  $("[data-replay-line]").replaceChildren(line(step.line, step.opener));
  root.querySelectorAll("[data-replay-seat]").forEach((seat) => {
    if (!(seat instanceof HTMLElement)) return;
    const number = Number(seat.dataset.replaySeat);
    const tiles = seat.querySelector(".tiles");
    if (tiles) tiles.replaceChildren(...step.hands[number].map(([a, b]) => tileElement(a, b)));
    seat.toggleAttribute("data-to-move", step.to_move === number);
  });
  root.querySelectorAll("button[data-step]").forEach((button) => {
    if (!(button instanceof HTMLButtonElement)) return;
    const kind = button.dataset.step;
    if (kind === "first" || kind === "prev") button.disabled = index === 0;
    if (kind === "next" || kind === "last") button.disabled = index === steps.length - 1;
  });
}

/** @param {number} target */
function go(target) {
  index = Math.max(0, Math.min(steps.length - 1, target));
  render();
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

function play() {
  if (timer !== null) return stop();
  if (index === steps.length - 1) go(0);
  timer = window.setInterval(() => {
    if (index >= steps.length - 1) return stop();
    go(index + 1);
  }, 900);
}

root.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  /** @type {HTMLElement | null | undefined} */
  const button = target?.closest("[data-step]");
  /** @type {HTMLElement | null | undefined} */
  const link = target?.closest("[data-goto]");
  if (link) {
    event.preventDefault();
    stop();
    go(Number(link.dataset.goto));
    root.scrollIntoView({ behavior: "smooth" });
    return;
  }
  if (!button) return;
  const kind = button.dataset.step;
  if (kind === "play") return play();
  stop();
  if (kind === "first") go(0);
  if (kind === "prev") go(index - 1);
  if (kind === "next") go(index + 1);
  if (kind === "last") go(steps.length - 1);
});

document.addEventListener("keydown", (event) => {
  if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowLeft") { stop(); go(index - 1); }
  if (event.key === "ArrowRight") { stop(); go(index + 1); }
});

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(render);
});

render();
