// Where a tournament's player goes next: the table a `matched` frame of the
// lobby socket announces (docs/tournaments.md, "Playing one game after
// another"). Pure, for the tournament page and its tables' pages (tests/js).

/** @typedef {import("../../js/socket.js").Frame} Frame */

/**
 * The address of the player's next table in tournament `tournamentId`, or
 * null when `frame` is not its `matched` frame or names the page already open.
 * @param {Frame} frame
 * @param {number} tournamentId
 * @param {string} here the path of the page open
 * @returns {string | null}
 */
export function nextTable(frame, tournamentId, here) {
  if (frame.type !== "matched" || frame.tournament !== tournamentId) return null;
  const url = frame.url;
  // A path of this site only (not "//host/...").
  if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//") || url === here) return null;
  return url;
}
