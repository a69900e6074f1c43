// The waiting page of a room table (lobby/room_table.html): follow the seats
// and go to the table as soon as the game starts (back to the room if the
// table is closed). (The room's panel on the table page is room_settlement.js.)
import { followWaitingTable } from "./waiting_table.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-room-table-page]");
if (root) {
  followWaitingTable(root, {
    every: 1500,
    abortedUrl: (status) => status.room_url || "/rooms/",
  });
}
