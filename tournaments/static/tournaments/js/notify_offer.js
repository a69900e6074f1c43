// The tournament page's offer of a browser notification a minute before the
// start (docs/tournaments.md, "Reminders"). "Notify me a minute before the
// start" asks the browser's permission from the click (browsers require one),
// then sends its form, which turns the member's notifications preference on
// (static/js/notify.js then shows the reminder's last minute). With the
// preference already on, a browser not asked yet gets an "Allow" button; a
// refusal, or a browser without notifications, is said (texts in the page).

import { askPermission, explainPermission, supported } from "../../js/notification_permission.js";

/** @type {HTMLElement | null} */
const box = document.querySelector("[data-notify-offer-box]");

const say = () => {
  if (!box) return;
  /** @type {HTMLElement | null} */
  const allow = box.querySelector("[data-notify-allow]");
  explainPermission(box, box.dataset.asked === "1" || !box.querySelector("[data-notify-offer]"));
  if (allow) allow.hidden = !supported() || Notification.permission !== "default";
};

if (box) {
  /** @type {HTMLFormElement | null} */
  const form = box.querySelector("form[data-notify-offer]");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      box.dataset.asked = "1";
      askPermission().then(() => form.submit());
    });
  }
  /** @type {HTMLElement | null} */
  const allow = box.querySelector("[data-notify-allow]");
  if (allow) allow.addEventListener("click", () => askPermission().then(say));
  say();
}
