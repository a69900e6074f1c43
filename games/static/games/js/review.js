// The post-game review on the replay page: computed after the game by a
// background task; until it is ready, ask the server again every few seconds.
const box = document.querySelector("[data-review]");

async function refresh(delay) {
  if (!box || box.querySelector("[data-review-ready]")) return;
  try {
    const response = await fetch(box.dataset.reviewUrl, { headers: { Accept: "text/html" } });
    if (response.ok) box.innerHTML = await response.text();
  } catch {
    // Offline for a moment: try again later.
  }
  if (!box.querySelector("[data-review-ready]")) setTimeout(() => refresh(Math.min(delay * 1.5, 20000)), delay);
}

setTimeout(() => refresh(3000), 2000);
