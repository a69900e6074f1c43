// Sounds of the table, made on the spot with the Web Audio API (no sound
// files): a soft click for a tile laid, two notes when it becomes your turn.
// "Mute sounds" is remembered in this browser (localStorage dominoes.mute-sounds).
// Browsers start audio only after a gesture on the page: the context is made
// on the first tap, click or key.
import { $, readSetting, saveSetting } from "./table_dom.js";

/** @type {AudioContext | null} */
let audio = null;
let muted = readSetting("mute-sounds");
const table = $("table");

function unlock() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (audio || !Context) return;
  try {
    audio = new Context();
  } catch {
    audio = null;
  }
}

/**
 * @param {AudioContext} audio
 * @param {number} frequency
 * @param {number} start
 * @param {number} length
 * @param {number} volume
 */
function tone(audio, frequency, start, length, volume) {
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = "sine";
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, audio.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(audio.currentTime + start);
  oscillator.stop(audio.currentTime + start + length);
}

/**
 * "move" (a tile laid) or "turn" (your turn). Counted on #table for tests.
 * @param {"move" | "turn"} kind
 */
export function playSound(kind) {
  if (muted) return;
  table.dataset.lastSound = kind;
  table.dataset.sounds = String(Number(table.dataset.sounds || 0) + 1);
  if (!audio || audio.state === "closed") return;
  if (kind === "turn") {
    tone(audio, 660, 0, 0.18, 0.08);
    tone(audio, 880, 0.16, 0.22, 0.08);
  } else {
    tone(audio, 220, 0, 0.07, 0.12);
  }
}

export function setupSound() {
  for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, unlock, { once: true, capture: true });
  /** @type {HTMLInputElement | null} */
  const box = document.querySelector('[data-setting="mute-sounds"]');
  if (!box) return;
  box.checked = muted;
  box.addEventListener("change", () => {
    muted = box.checked;
    saveSetting("mute-sounds", muted);
  });
}
