// Replay stepper: shows any step of a finished game from the steps the
// server computed with the engine (all hands shown).
import { tileElement } from "../../js/tiles.js";
import { fitLine } from "../../games/js/line_layout.js";

const root = document.querySelector("[data-replay]");
const steps = JSON.parse(document.getElementById("replay-steps").textContent);
let index = steps.length - 1;
let timer = null;

const $ = (selector) => root.querySelector(selector);

/** The line laid out as at the table: a centred snake on the felt (line_layout.js). */
function line(pairs, opener) {
  const board = document.createElement("div");
  board.className = "replay-board";
  board.dataset.replayBoard = "";
  const box = document.createElement("div");
  box.className = "replay-line";
  board.appendChild(box);
  const width = Math.max(200, (root.querySelector("[data-replay-line]").clientWidth || 600) - 12);
  const layout = fitLine(pairs, {
    width, maxHeight: Math.max(160, Math.round(window.innerHeight * 0.4)), opener: Math.min(opener || 0, Math.max(0, pairs.length - 1)),
    max: width >= 900 ? 36 : 30, big: width >= 900 ? 48 : 40,
  });
  box.style.height = `${layout.height}px`;
  for (const place of layout.tiles) {
    const tile = tileElement(place.a, place.b, { vertical: place.vertical });
    tile.dataset.replayTile = `${Math.min(place.a, place.b)}-${Math.max(place.a, place.b)}`;
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
  const boneyard = $("[data-replay-boneyard]");
  if (boneyard) boneyard.textContent = String(step.boneyard);
  $("[data-replay-line]").replaceChildren(line(step.line, step.opener));
  root.querySelectorAll("[data-replay-seat]").forEach((seat) => {
    const number = Number(seat.dataset.replaySeat);
    const tiles = seat.querySelector(".tiles");
    tiles.replaceChildren(...step.hands[number].map(([a, b]) => tileElement(a, b)));
    seat.toggleAttribute("data-to-move", step.to_move === number);
  });
  root.querySelectorAll("[data-step]").forEach((button) => {
    const kind = button.dataset.step;
    if (kind === "first" || kind === "prev") button.disabled = index === 0;
    if (kind === "next" || kind === "last") button.disabled = index === steps.length - 1;
  });
}

function go(target) {
  index = Math.max(0, Math.min(steps.length - 1, target));
  let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(render);
});

render();
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

function play() {
  if (timer !== null) return stop();
  if (index === steps.length - 1) go(0);
  timer = setInterval(() => {
    if (index >= steps.length - 1) return stop();
    go(index + 1);
  }, 900);
}

root.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  const link = event.target.closest("[data-goto]");
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
  if (event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowLeft") { stop(); go(index - 1); }
  if (event.key === "ArrowRight") { stop(); go(index + 1); }
});

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(render);
});

render();
