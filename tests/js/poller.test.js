// The pages' one poller (static/js/poller.js), on fake timers.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { poll, pollFragment, refreshFragment } from "../../static/js/poller.js";

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

/** A fake `fetch` answering each URL from `pages` (a status and a body), counting the requests. */
function fakeFetch(pages) {
  const fetcher = async (url, init) => {
    fetcher.requests.push({ url, accept: init.headers.Accept, open: fetcher.open });
    fetcher.open += 1;
    try {
      const page = typeof pages[url] === "function" ? pages[url]() : pages[url];
      if (page instanceof Error) throw page;
      return { ok: page.status >= 200 && page.status < 300, text: async () => page.body };
    } finally {
      fetcher.open -= 1;
    }
  };
  fetcher.requests = [];
  fetcher.open = 0;
  return fetcher;
}

describe("refreshFragment", () => {
  it("puts a 2xx answer's HTML in the target, asked as HTML", async () => {
    const target = { innerHTML: "old" };
    const fetcher = fakeFetch({ "/f": { status: 200, body: "<li>new</li>" } });
    assert.equal(await refreshFragment(target, "/f", fetcher), true);
    assert.equal(target.innerHTML, "<li>new</li>");
    assert.deepEqual(fetcher.requests.map((r) => r.accept), ["text/html"]);
  });

  it("leaves the target as it is on another answer, and throws when offline", async () => {
    const target = { innerHTML: "old" };
    const fetcher = fakeFetch({ "/gone": { status: 404, body: "not found" }, "/off": new TypeError("Failed to fetch") });
    assert.equal(await refreshFragment(target, "/gone", fetcher), false);
    await assert.rejects(refreshFragment(target, "/off", fetcher), TypeError);
    assert.equal(target.innerHTML, "old");
  });
});

describe("pollFragment", () => {
  it("replaces the fragment every `every`, the first after as long, one request at a time, offline or not", async () => {
    let round = 0;
    const answers = [{ status: 200, body: "1" }, new TypeError("Failed to fetch"), { status: 503, body: "busy" }, { status: 200, body: "4" }];
    const env = fakeTimers();
    env.fetch = fakeFetch({ "/chat/": () => answers[round++] });
    const target = { innerHTML: "0" };
    pollFragment(target, "/chat/", { every: 10000 }, env);
    assert.equal(env.fetch.requests.length, 0);
    const seen = [];
    for (let i = 0; i < 4; i += 1) {
      await env.tick();
      seen.push(target.innerHTML);
    }
    assert.deepEqual(seen, ["1", "1", "1", "4"]);
    assert.deepEqual(env.waits, [10000, 10000, 10000, 10000, 10000], "it keeps going");
    assert.ok(env.fetch.requests.every((r) => r.open === 0), "never two requests at once");
  });

  it("asks only while `when` says so (the standings while their socket is down)", async () => {
    let live = true;
    const env = fakeTimers();
    env.fetch = fakeFetch({ "/standings/": { status: 200, body: "rows" } });
    const panel = { innerHTML: "" };
    const stop = pollFragment(panel, "/standings/", { every: 30000, when: () => !live }, env);
    await env.tick();
    assert.equal(env.fetch.requests.length, 0);
    live = false;
    await env.tick();
    assert.equal(panel.innerHTML, "rows");
    live = true;
    await env.tick();
    assert.equal(env.fetch.requests.length, 1);
    stop();
    assert.equal(await env.tick(), false);
  });
});
