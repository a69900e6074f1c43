// The pages' one poller (static/js/poller.js), on fake timers.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { poll } from "../../static/js/poller.js";

function fakeTimers() {
  const env = {
    waits: [],
    pending: null,
    setTimeout: (callback, ms) => {
      env.waits.push(ms);
      env.pending = { callback, ms, cleared: false };
      return env.pending;
    },
    clearTimeout: (timer) => {
      if (timer) timer.cleared = true;
    },
    /** Let the waiting timer run, and the check it starts answer. */
    async tick() {
      const timer = env.pending;
      env.pending = null;
      if (!timer || timer.cleared) return false;
      await timer.callback();
      return true;
    },
  };
  return env;
}

describe("poll", () => {
  it("checks after `first`, then every `every` until the check says done", async () => {
    const env = fakeTimers();
    const answers = [false, false, true];
    let checks = 0;
    poll(async () => { checks += 1; return answers.shift(); }, { first: 2000, every: 1000 }, env);
    assert.equal(checks, 0);
    while (await env.tick());
    assert.equal(checks, 3);
    assert.deepEqual(env.waits, [2000, 1000, 1000]);
  });

  it("waits longer each time up to `max`", async () => {
    const env = fakeTimers();
    let checks = 0;
    poll(() => { checks += 1; return checks === 7; }, { first: 2000, every: 3000, growth: 1.5, max: 20000 }, env);
    while (await env.tick());
    assert.deepEqual(env.waits, [2000, 3000, 4500, 6750, 10125, 15187.5, 20000]);
  });

  it("a failing check (offline) is tried again", async () => {
    const env = fakeTimers();
    let checks = 0;
    poll(async () => {
      checks += 1;
      if (checks < 3) throw new TypeError("Failed to fetch");
      return true;
    }, { every: 500 }, env);
    while (await env.tick());
    assert.equal(checks, 3);
    assert.deepEqual(env.waits, [0, 500, 500]);
  });

  it("gives up after `tries` checks", async () => {
    const env = fakeTimers();
    let checks = 0;
    poll(() => { checks += 1; return false; }, { first: 5000, every: 1000, tries: 4 }, env);
    while (await env.tick());
    assert.equal(checks, 4);
  });

  it("stops when told, even with a check on its way", async () => {
    const env = fakeTimers();
    let checks = 0;
    /** @type {() => void} */
    let release = () => {};
    const stop = poll(() => {
      checks += 1;
      return new Promise((resolve) => { release = () => resolve(false); });
    }, { every: 1000 }, env);
    const running = env.tick();
    stop();
    release();
    await running;
    assert.equal(env.pending, null, "nothing scheduled after the stop");
    assert.equal(checks, 1);
    const env2 = fakeTimers();
    const stop2 = poll(() => { checks += 1; return false; }, { first: 10, every: 1000 }, env2);
    stop2();
    assert.equal(await env2.tick(), false);
    assert.equal(checks, 1);
  });
});
