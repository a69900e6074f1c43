// The reminder bar's rules, pure (tests/js/tournament_reminder.test.js):
// its clock, and when it shows its in-page message in the last minute
// before the start (docs/tournaments.md, "Reminders").

export const LAST_MINUTE = 60;

/**
 * "4:32", "1:02:05": a count of seconds as the bar shows it.
 * @param {number} seconds
 */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/**
 * Within the last minute before the start (not yet started)?
 * @param {number} left seconds to the start
 */
export function inLastMinute(left) {
  return left > 0 && left <= LAST_MINUTE;
}

/**
 * Whether the bar shows its in-page message: in the last minute, when the
 * page is visible or no browser notification can stand in for it (the
 * member's preference off, or the browser's permission not granted).
 * @param {number} left seconds to the start
 * @param {{visible: boolean, notifying: boolean}} page
 */
export function showsMessage(left, page) {
  return inLastMinute(left) && (page.visible || !page.notifying);
}
