// The waiting page of a table (a private table, a room table): poll its
// status (`data-status-url` on the root) and go to the table as soon as the
// game starts; reload when the seats change.

/**
 * - `every`: milliseconds between two polls.
 * - `abortedUrl(status)`: where to go when the table was closed.
 */
export function followWaitingTable(root, { every, abortedUrl }) {
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
        if (status.status === "aborted") { window.location.assign(abortedUrl(status)); return; }
        const signature = JSON.stringify(status.seats);
        if (known !== null && signature !== known) { window.location.reload(); return; }
        known = signature;
      }
    } catch { /* offline for a moment: try again */ }
    setTimeout(poll, every);
  }
  poll();
}
