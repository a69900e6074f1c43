// The browser's permission to show notifications, for the pages that offer
// them (the settings page's box, a tournament page's offer): asked from a
// click (browsers require one), and the notes that say why none will come.

/** Whether this browser can show notifications. */
export const supported = () => "Notification" in window;

/**
 * Ask the browser's permission when it has not been asked yet; resolves once
 * it has answered (or at once when there is nothing to ask).
 * @returns {Promise<void>}
 */
export const askPermission = () =>
  supported() && Notification.permission === "default"
    ? Notification.requestPermission().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();

/**
 * Show, in ``root``, the note that says why no notification will come (a
 * browser without them, or one that refused them), once they are ``wanted``.
 * @param {ParentNode} root
 * @param {boolean} wanted
 */
export function explainPermission(root, wanted) {
  /** @type {HTMLElement | null} */
  const denied = root.querySelector("[data-notification-denied]");
  /** @type {HTMLElement | null} */
  const unsupported = root.querySelector("[data-notification-unsupported]");
  if (unsupported) unsupported.hidden = supported() || !wanted;
  if (denied) denied.hidden = !supported() || !wanted || Notification.permission !== "denied";
}
