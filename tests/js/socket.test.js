// The pages' one websocket helper (static/js/socket.js) against a fake
// browser: reconnection with back-off and jitter, a final close, `online`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { backoff, openSocket } from "../../static/js/socket.js";

class FakeSocket extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    this.sent = [];
  }

  send(data) {
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.drop(1000);
  }

  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event("open"));
  }

  message(data) {
    const event = new Event("message");
    event.data = data;
    this.dispatchEvent(event);
  }

  drop(code, reason = "") {
    this.readyState = 3;
    const event = new Event("close");
    event.code = code;
    event.reason = reason;
    this.dispatchEvent(event);
  }
}

/** A browser of fakes: the sockets opened, the timers waiting, a fixed random. */
function fakeBrowser(random = 0.5) {
  const env = {
    sockets: [],
    timers: [],
    online: [],
    open: (url) => {
      const socket = new FakeSocket(url);
      env.sockets.push(socket);
      return socket;
    },
    origin: "wss://club.example",
    setTimeout: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      env.timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      if (timer) timer.cleared = true;
    },
    random: () => random,
    onOnline: (callback) => env.online.push(callback),
    /** Run the last timer, as if its time had come. */
    fire() {
      const timer = env.timers.at(-1);
      assert.ok(timer && !timer.cleared, "a reconnection is waiting");
      timer.callback();
    },
    get last() {
      return env.sockets.at(-1);
    },
  };
  return env;
}

function recorder() {
  const seen = [];
  return {
    seen,
    handlers: {
      onOpen: (reopened) => seen.push(["open", reopened]),
      onFrame: (frame) => seen.push(["frame", frame]),
      onDrop: () => seen.push(["drop"]),
      onRefused: (close) => seen.push(["refused", close]),
    },
  };
}

describe("backoff", () => {
  it("doubles from 0.5 s up to 10 s, each within 75 % to 125 %", () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((attempt) => backoff(attempt, () => 0.5)), [500, 1000, 2000, 4000, 8000, 10000, 10000]);
    assert.equal(backoff(0, () => 0), 375);
    assert.equal(backoff(5, () => 0.999999) < 12500, true);
    assert.equal(backoff(5, () => 0.999999) > 12499, true);
  });

  it("spreads the pages of one drop (jitter)", () => {
    const waits = new Set(Array.from({ length: 50 }, () => backoff(3)));
    assert.ok(waits.size > 40, `${waits.size} different waits`);
    for (const wait of waits) assert.ok(wait >= 3000 && wait <= 5000, String(wait));
  });
});

describe("openSocket", () => {
  it("opens the path on this site and hands over JSON objects only", () => {
    const env = fakeBrowser();
    const { seen, handlers } = recorder();
    openSocket("/ws/table/7/", handlers, env);
    assert.equal(env.last.url, "wss://club.example/ws/table/7/");
    env.last.open();
    env.last.message('{"type": "state", "seq": 3}');
    env.last.message("not json");
    env.last.message("[1, 2]");
    env.last.message("null");
    assert.deepEqual(seen, [["open", false], ["frame", { type: "state", seq: 3 }]]);
  });

  it("sends only while open", () => {
    const env = fakeBrowser();
    const socket = openSocket("/ws/lobby/", {}, env);
    assert.equal(socket.send({ type: "leave" }), false);
    env.last.open();
    assert.equal(socket.isOpen(), true);
    assert.equal(socket.send({ type: "leave" }), true);
    assert.deepEqual(env.last.sent, [{ type: "leave" }]);
  });

  it("reconnects after a drop, waiting longer each time, and says it reopened", () => {
    const env = fakeBrowser(0.5);
    const { seen, handlers } = recorder();
    openSocket("/ws/table/7/", handlers, env);
    env.last.open();
    env.last.drop(1006);
    assert.equal(env.timers.at(-1).ms, 500);
    env.fire();
    env.last.drop(1006);
    assert.equal(env.timers.at(-1).ms, 1000);
    env.fire();
    env.last.drop(1011);
    assert.equal(env.timers.at(-1).ms, 2000);
    env.fire();
    env.last.open();
    assert.equal(env.sockets.length, 4);
    assert.deepEqual(seen, [["open", false], ["drop"], ["drop"], ["drop"], ["open", true]]);
    // Opened again: the next drop starts from the shortest wait.
    env.last.drop(1006);
    assert.equal(env.timers.at(-1).ms, 500);
  });

  it("the waits carry the jitter", () => {
    const env = fakeBrowser(0);
    openSocket("/ws/lobby/", {}, env);
    env.last.drop(1006);
    assert.equal(env.timers.at(-1).ms, 375);
  });

  it("stops on a close the server meant as final (4xxx)", () => {
    const env = fakeBrowser();
    const { seen, handlers } = recorder();
    openSocket("/ws/table/7/", handlers, env);
    env.last.drop(4404, "No such table.");
    assert.deepEqual(seen, [["refused", { code: 4404, reason: "No such table." }]]);
    assert.equal(env.timers.length, 0);
    env.online.forEach((callback) => callback());
    assert.equal(env.sockets.length, 1, "online does not bring a refused page back");
  });

  it("a page may keep reconnecting on every code", () => {
    const env = fakeBrowser();
    const { seen, handlers } = recorder();
    openSocket("/ws/lobby/", { ...handlers, isFinal: () => false }, env);
    env.last.drop(4429);
    assert.deepEqual(seen, [["drop"]]);
    assert.equal(env.timers.length, 1);
  });

  it("comes back at once when the browser is online again", () => {
    const env = fakeBrowser();
    openSocket("/ws/table/7/", {}, env);
    env.last.drop(1006);
    const waiting = env.timers.at(-1);
    env.online.forEach((callback) => callback());
    assert.equal(env.sockets.length, 2);
    assert.equal(waiting.cleared, true);
    env.online.forEach((callback) => callback());
    assert.equal(env.sockets.length, 2, "not while a socket is open or opening");
  });

  it("closed by the page: no reconnection, and no frame of the old socket", () => {
    const env = fakeBrowser();
    const { seen, handlers } = recorder();
    const socket = openSocket("/ws/lobby/", handlers, env);
    const first = env.last;
    first.open();
    socket.close();
    first.message('{"type": "counts"}');
    assert.deepEqual(seen, [["open", false]]);
    assert.equal(env.timers.length, 0);
    assert.equal(socket.send({ type: "leave" }), false);
  });
});
