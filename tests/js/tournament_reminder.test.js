// The reminder bar's rules (tournaments/static/tournaments/js/reminder_rule.js).
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { clock, inLastMinute, showsMessage } from "../../tournaments/static/tournaments/js/reminder_rule.js";

describe("clock", () => {
  it("shows minutes and seconds, hours when there are some, never below zero", () => {
    assert.equal(clock(272), "4:32");
    assert.equal(clock(59.9), "0:59");
    assert.equal(clock(3725), "1:02:05");
    assert.equal(clock(-4), "0:00");
  });
});

describe("the last minute's message", () => {
  const visible = { visible: true, notifying: true };
  const hiddenNotifying = { visible: false, notifying: true };
  const hiddenNotNotifying = { visible: false, notifying: false };

  it("is the minute before the start only", () => {
    assert.equal(inLastMinute(61), false);
    assert.equal(inLastMinute(60), true);
    assert.equal(inLastMinute(0.5), true);
    assert.equal(inLastMinute(0), false);
    assert.equal(inLastMinute(-3), false);
  });

  it("shows on a visible page, notifications on or off", () => {
    assert.equal(showsMessage(42, visible), true);
    assert.equal(showsMessage(42, { visible: true, notifying: false }), true);
  });

  it("shows on a hidden page only when no browser notification stands in for it", () => {
    assert.equal(showsMessage(42, hiddenNotNotifying), true);
    assert.equal(showsMessage(42, hiddenNotifying), false);
  });

  it("does not show before the last minute nor once started", () => {
    for (const page of [visible, hiddenNotNotifying]) {
      assert.equal(showsMessage(61, page), false);
      assert.equal(showsMessage(0, page), false);
    }
  });
});
