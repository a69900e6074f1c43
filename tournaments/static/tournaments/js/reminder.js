// The reminder bar of every page (templates/base.html): the countdown to the
// start of the member's next tournament, then "has started" once it runs
// (both texts come translated in the page; this only counts). In the last
// minute it asks static/js/notify.js for a browser notification, once per
// tournament (nothing happens unless the member turned notifications on),
// and shows its in-page message when the page is visible or no notification
// can be shown (reminder_rule.js).
import { clock, inLastMinute, showsMessage } from "./reminder_rule.js";

/** @type {HTMLElement | null} */
const bar = document.querySelector("[data-tournament-reminder]");
if (bar && bar.dataset.started !== "1") {
  /** @type {HTMLElement | null} */
  const coming = bar.querySelector("[data-reminder-coming]");
  /** @type {HTMLElement | null} */
  const started = bar.querySelector("[data-reminder-started]");
  /** @type {HTMLElement | null} */
  const soon = bar.querySelector("[data-reminder-soon]");
  const text = bar.querySelector("[data-reminder-clock]");
  // From the server's count, not the browser's clock (which may be off).
  const start = performance.now() + Number(bar.dataset.secondsToStart || 0) * 1000;
  /** @type {number | undefined} */
  let timer;
  const show = () => {
    const left = (start - performance.now()) / 1000;
    if (text) text.textContent = clock(left);
    const key = `club:reminded:${bar.dataset.tournamentReminder}`;
    if (inLastMinute(left) && coming && !window.localStorage.getItem(key)) {
      const notification = { text: (coming.textContent || "").trim(), tag: key, shown: false };
      document.dispatchEvent(new CustomEvent("club:notify", { detail: notification }));
      if (notification.shown) window.localStorage.setItem(key, "1");
    }
    const notifying =
      document.body.dataset.notifications === "on" && "Notification" in window && Notification.permission === "granted";
    // Once shown, it stays until the start.
    if (soon && soon.hidden && showsMessage(left, { visible: document.visibilityState === "visible", notifying })) {
      soon.hidden = false;
    }
    if (left <= 0 && coming && started) {
      coming.hidden = true;
      if (soon) soon.hidden = true;
      started.hidden = false;
      bar.dataset.started = "1";
      window.clearInterval(timer);
    }
  };
  show();
  timer = window.setInterval(show, 1000);
}
