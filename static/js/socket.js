// The one websocket helper of every page (the table, the lobby's pages): it
// connects to a path of this site, hands over each JSON frame, and after a
// drop reconnects by itself with exponential back-off and jitter (0.5 s, 1 s,
// 2 s ... 10 s, each between 75 % and 125 % of that, so that the pages of a
// restarted server do not all come back in the same instant), and at once
// when the browser says it is online again. A close the server meant as
// final (a 4xxx code: no such table, not allowed, flood) stops it.

/** @typedef {Record<string, any>} Frame a JSON object with a `type` */

/**
 * The wait before reconnection attempt number `attempt` (0 for the first).
 * @param {number} attempt
 * @param {() => number} [random] a number in [0, 1)
 * @returns {number} milliseconds
 */
export function backoff(attempt, random = Math.random) {
  return Math.min(10000, 500 * 2 ** attempt) * (0.75 + random() * 0.5);
}

/** @param {number} code */
export const refusedByServer = (code) => code >= 4000 && code < 5000;

/**
 * @typedef {object} SocketHandlers
 * @property {(reopened: boolean) => void} [onOpen] the socket opened (`reopened` after a drop)
 * @property {(frame: Frame) => void} [onFrame] a frame came (only JSON objects)
 * @property {() => void} [onDrop] the socket dropped: a new attempt is scheduled
 * @property {(close: {code: number, reason: string}) => void} [onRefused] a final close: no new attempt
 * @property {(code: number) => boolean} [isFinal] which close codes are final (default: 4xxx)
 */

/**
 * What the helper uses of the browser (tests pass their own).
 * @typedef {object} SocketEnv
 * @property {(url: string) => WebSocket} open
 * @property {string} origin "ws://host" or "wss://host"
 * @property {(callback: () => void, ms: number) => unknown} setTimeout
 * @property {(timer: unknown) => void} clearTimeout
 * @property {() => number} random
 * @property {(callback: () => void) => void} onOnline
 */

/** @returns {SocketEnv} */
function browserEnv() {
  return {
    open: (url) => new WebSocket(url),
    origin: `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}`,
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (timer) => window.clearTimeout(/** @type {number | undefined} */ (timer)),
    random: Math.random,
    onOnline: (callback) => window.addEventListener("online", callback),
  };
}

/**
 * @typedef {object} LiveSocket
 * @property {(frame: Frame) => boolean} send sends when open; false (nothing sent) otherwise
 * @property {() => void} close closes for good (no reconnection)
 * @property {() => boolean} isOpen
 */

/**
 * Open `path` (e.g. "/ws/table/7/") on this site and keep it open.
 * @param {string} path
 * @param {SocketHandlers} handlers
 * @param {SocketEnv} [env]
 * @returns {LiveSocket}
 */
export function openSocket(path, handlers, env = browserEnv()) {
  const { onOpen = () => {}, onFrame = () => {}, onDrop = () => {}, onRefused = () => {}, isFinal = refusedByServer } = handlers;
  /** @type {WebSocket | null} */
  let socket = null;
  let attempts = 0;
  let openedOnce = false;
  let stopped = false;
  /** @type {unknown} */
  let timer = null;

  function connect() {
    env.clearTimeout(timer);
    timer = null;
    if (stopped) return;
    const current = env.open(`${env.origin}${path}`);
    socket = current;
    current.addEventListener("open", () => {
      if (socket !== current) return;
      attempts = 0;
      onOpen(openedOnce);
      openedOnce = true;
    });
    current.addEventListener("message", (message) => {
      if (socket !== current) return;
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame && typeof frame === "object" && !Array.isArray(frame)) onFrame(frame);
    });
    current.addEventListener("close", (close) => {
      if (socket !== current) return;
      socket = null;
      if (stopped) return;
      if (isFinal(close.code)) {
        stopped = true;
        onRefused({ code: close.code, reason: close.reason });
        return;
      }
      onDrop();
      timer = env.setTimeout(connect, backoff(attempts, env.random));
      attempts += 1;
    });
  }

  env.onOnline(() => {
    if (!socket && !stopped) connect();
  });
  connect();
  return {
    send(frame) {
      if (!socket || socket.readyState !== 1) return false; // 1: WebSocket.OPEN
      socket.send(JSON.stringify(frame));
      return true;
    },
    close() {
      stopped = true;
      env.clearTimeout(timer);
      if (socket) socket.close();
      socket = null;
    },
    isOpen: () => Boolean(socket && socket.readyState === 1),
  };
}
