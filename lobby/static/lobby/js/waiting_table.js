// The waiting page of a table (a private table, a room table): poll its
// status (`data-status-url` on the root) and go to the table as soon as the
// game starts; reload when the seats change.
import { getJson, poll } from "../../js/poller.js";

/**
 * @typedef {object} WaitingStatus the answer of the status URL
 * @property {string} status "waiting", "playing", "finished" or "aborted"
 * @property {string} url the table page
 * @property {unknown} seats
 * @property {string} [room_url]
 */

/**
 * @param {HTMLElement} root
 * @param {{every: number, abortedUrl: (status: WaitingStatus) => string}} options
 *   `every`: milliseconds between two polls; `abortedUrl(status)`: where to go when the table was closed
 */
export function followWaitingTable(root, { every, abortedUrl }) {
  /** @type {string | null} */
  let known = null;
  const url = root.dataset.statusUrl || "";
  poll(async () => {
    /** @type {WaitingStatus | null} */
    const status = await getJson(url);
    if (!status) return false;
    if (status.status === "playing" || status.status === "finished") {
      window.location.assign(status.url);
      return true;
    }
    if (status.status === "aborted") {
      window.location.assign(abortedUrl(status));
      return true;
    }
    const signature = JSON.stringify(status.seats);
    if (known !== null && signature !== known) {
      window.location.reload();
      return true;
    }
    known = signature;
    return false;
  }, { every });
}
