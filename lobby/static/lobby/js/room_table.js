// The waiting page of a room table: follow the seats and go to the table as
// soon as the game starts (back to the room if the table is closed).
const root = document.querySelector("[data-room-table-page]");

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
      if (status.status === "aborted") { window.location.assign(status.room_url); return; }
      const signature = JSON.stringify(status.seats);
      if (known !== null && signature !== known) { window.location.reload(); return; }
      known = signature;
    }
  } catch { /* offline for a moment: try again */ }
  setTimeout(poll, 1500);
}
poll();
