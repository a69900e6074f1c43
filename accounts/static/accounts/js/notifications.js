// The settings page's "notifications" box: ticking it asks the browser's
// permission (from that click, as browsers require); a refusal, or a browser
// without notifications, is said next to the box (texts translated in the page).

import { askPermission, explainPermission } from "../../js/notification_permission.js";

/** @type {HTMLInputElement | null} */
const box = document.querySelector('input[name="notifications"]');

if (box) {
  const say = () => explainPermission(document, box.checked);
  box.addEventListener("change", () => {
    if (box.checked) askPermission().then(say);
    say();
  });
  say();
}
