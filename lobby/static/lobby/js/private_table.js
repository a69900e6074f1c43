// The waiting room of a private table: copy the invitation link; follow the
// seats and go to the table as soon as the game starts.
const root = document.querySelector("[data-private-table]");

root.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = root.querySelector(button.dataset.copy);
  input.select();
  try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand("copy"); }
});

let known = null;
async function poll() {
  try {
    const response = await fetch(root.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const status = await response.json();
      if (status.status === "playing" || status.status === "finished") {
        window.location.assign(status.url);
        return;
      }
      if (status.status === "aborted") { window.location.assign("/"); return; }
      const signature = JSON.stringify(status.seats);
      if (known !== null && signature !== known) { window.location.reload(); return; }
      known = signature;
    }
  } catch { /* offline for a moment: try again */ }
  setTimeout(poll, 2000);
}
poll();
