// Browser notifications for a member whose "notifications" preference is on
// (templates/base.html loads this only then, and marks <body> with
// data-notifications="on"). Other scripts ask for one with a "club:notify"
// event on document, detail {text, tag}; it is shown only while the page is
// hidden and the browser's permission is granted (docs/members.md); it sets
// detail.shown when it showed one.

document.addEventListener("club:notify", (event) => {
  const detail = /** @type {CustomEvent<{text: string, tag?: string, shown?: boolean}>} */ (event).detail;
  if (document.body.dataset.notifications !== "on" || !detail || !detail.text) return;
  if (document.visibilityState !== "hidden") return;
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  new Notification(detail.text, detail.tag ? { tag: detail.tag } : {});
  detail.shown = true;
});
