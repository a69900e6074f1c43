// The tournament's next table (tournaments/static/tournaments/js/follow.js).
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { nextTable } from "../../tournaments/static/tournaments/js/follow.js";

describe("nextTable", () => {
  const matched = { type: "matched", table: 12, url: "/table/12/", tournament: 3 };

  it("follows this tournament's matched frame to another table", () => {
    assert.equal(nextTable(matched, 3, "/table/9/"), "/table/12/");
    assert.equal(nextTable(matched, 3, "/tournaments/3/"), "/table/12/");
  });

  it("ignores another tournament's, a ranked match's and other frames", () => {
    assert.equal(nextTable(matched, 4, "/table/9/"), null);
    assert.equal(nextTable({ type: "matched", table: 12, url: "/table/12/" }, 3, "/table/9/"), null);
    assert.equal(nextTable({ type: "counts", online: 2, tournament: 3 }, 3, "/table/9/"), null);
  });

  it("stays on the table already open and refuses an address off the site", () => {
    assert.equal(nextTable(matched, 3, "/table/12/"), null);
    assert.equal(nextTable({ ...matched, url: "https://elsewhere.example/" }, 3, "/table/9/"), null);
    assert.equal(nextTable({ ...matched, url: "//elsewhere.example/" }, 3, "/table/9/"), null);
  });
});
