// The reminder bar of every page (templates/base.html): the countdown to the
// start of the member's next tournament, then "has started" once it runs
// (both texts come translated in the page; this only counts). In the last
// minute it asks static/js/notify.js for a browser notification, once per
// tournament (nothing happens unless the member turned notifications on).

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** @type {HTMLElement | null} */
const bar = document.querySelector("[data-tournament-reminder]");
if (bar && bar.dataset.started !== "1") {
  /** @type {HTMLElement | null} */
  const coming = bar.querySelector("[data-reminder-coming]");
  /** @type {HTMLElement | null} */
  const started = bar.querySelector("[data-reminder-started]");
  const text = bar.querySelector("[data-reminder-clock]");
  // From the server's count, not the browser's clock (which may be off).
  const start = performance.now() + Number(bar.dataset.secondsToStart || 0) * 1000;
  /** @type {number | undefined} */
  let timer;
  const show = () => {
    const left = (start - performance.now()) / 1000;
    if (text) text.textContent = clock(left);
    const key = `club:reminded:${bar.dataset.tournamentReminder}`;
    if (left > 0 && left <= 60 && coming && !window.localStorage.getItem(key)) {
      const notification = { text: (coming.textContent || "").trim(), tag: key, shown: false };
      document.dispatchEvent(new CustomEvent("club:notify", { detail: notification }));
      if (notification.shown) window.localStorage.setItem(key, "1");
    }
    if (left <= 0 && coming && started) {
      coming.hidden = true;
      started.hidden = false;
      bar.dataset.started = "1";
      window.clearInterval(timer);
    }
  };
  show();
  timer = window.setInterval(show, 1000);
}
