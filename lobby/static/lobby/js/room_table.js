// The waiting page of a room table: follow the seats and go to the table as
// soon as the game starts (back to the room if the table is closed).
import { followWaitingTable } from "./waiting_table.js";

followWaitingTable(document.querySelector("[data-room-table-page]"), {
  every: 1500,
  abortedUrl: (status) => status.room_url,
});
