// The waiting room of a private table: copy the invitation link; follow the
// seats and go to the table as soon as the game starts.
import { followWaitingTable } from "./waiting_table.js";

const root = document.querySelector("[data-private-table]");

root.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = root.querySelector(button.dataset.copy);
  input.select();
  try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
});

followWaitingTable(root, { every: 2000, abortedUrl: () => "/" });
