// The waiting room of a private table: copy the invitation link; follow the
// seats and go to the table as soon as the game starts.
import { followWaitingTable } from "./waiting_table.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-private-table]");

if (root) {
  root.addEventListener("click", async (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!(button instanceof HTMLElement)) return;
    /** @type {HTMLInputElement | null} */
    const input = root.querySelector(button.dataset.copy || "");
    if (!input) return;
    input.select();
    try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
  });

  followWaitingTable(root, { every: 2000, abortedUrl: () => "/" });
}
