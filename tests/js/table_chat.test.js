// The report links of the table page (games/static/games/js/table_chat.js):
// from a chat line and from a player's name, to that member's report form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

// The page's catalogue script defines window.gettext; node has no window.
globalThis.window ??= /** @type {any} */ ({});
const { reportPlayerUrl, reportUrl } = await import("../../games/static/games/js/table_chat.js");

describe("report links", () => {
  it("a chat line's link opens the form with the line", () => {
    assert.equal(reportUrl("/u/USERNAME/", "bob", 12), "/u/bob/?report_line=12#report");
  });

  it("a name at the table opens the form with the table, the name escaped", () => {
    assert.equal(reportPlayerUrl("/u/USERNAME/", "bob", 7), "/u/bob/?report_table=7#report");
    assert.equal(reportPlayerUrl("/u/USERNAME/", "a b/c", 7), "/u/a%20b%2Fc/?report_table=7#report");
  });
});
