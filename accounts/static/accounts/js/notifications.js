// The settings page's "notifications" box: ticking it asks the browser's
// permission (from that click, as browsers require); a refusal, or a browser
// without notifications, is said next to the box (texts translated in the page).

/** @type {HTMLInputElement | null} */
const box = document.querySelector('input[name="notifications"]');
/** @type {HTMLElement | null} */
const denied = document.querySelector("[data-notification-denied]");
/** @type {HTMLElement | null} */
const unsupported = document.querySelector("[data-notification-unsupported]");

const say = () => {
  if (!box || !denied || !unsupported) return;
  const supported = "Notification" in window;
  unsupported.hidden = supported || !box.checked;
  denied.hidden = !supported || !box.checked || Notification.permission !== "denied";
};

if (box) {
  box.addEventListener("change", () => {
    if (box.checked && "Notification" in window && Notification.permission === "default") {
      Notification.requestPermission().then(say, say);
    }
    say();
  });
  say();
}
