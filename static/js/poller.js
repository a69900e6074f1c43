// The one poller of the pages: ask the server again and again until the
// answer is what the page waits for (a review computed, a game started, a
// room table settled), or keep a fragment of a page fresh (a tournament's
// chat lines and, while their socket is down, its standings). One request at
// a time: the next wait starts when an answer (or a failure) came.

/**
 * @typedef {object} PollOptions
 * @property {number} [first] milliseconds before the first check (default 0: at once)
 * @property {number} every milliseconds between an answer and the next check
 * @property {number} [growth] each wait is the previous one times this (default 1)
 * @property {number} [max] the longest wait (default: `every`)
 * @property {number} [tries] at most this many checks (default: no limit)
 */

/**
 * A GET of the browser's `fetch`, as far as a fragment needs it.
 * @typedef {(url: string, init: {headers: Record<string, string>}) => Promise<{ok: boolean, text: () => Promise<string>}>} Fetcher
 */

/**
 * What the poller uses of the browser (tests pass their own).
 * @typedef {object} PollEnv
 * @property {(callback: () => void, ms: number) => unknown} setTimeout
 * @property {(timer: unknown) => void} clearTimeout
 * @property {Fetcher} [fetch] for the fragments (default: the browser's)
 */

/** @type {PollEnv} */
const timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (timer) => globalThis.clearTimeout(/** @type {number | undefined} */ (timer)),
};

/** @type {Fetcher} */
const browserFetch = (url, init) => globalThis.fetch(url, init);

/**
 * Call `check` until it answers true. A check that throws (offline for a
 * moment) counts as "not yet". Returns a function that stops the polling.
 * @param {() => Promise<boolean> | boolean} check
 * @param {PollOptions} options
 * @param {PollEnv} [env]
 * @returns {() => void}
 */
export function poll(check, { first = 0, every, growth = 1, max = every, tries = Infinity }, env = timers) {
  let stopped = false;
  let left = tries;
  let wait = every;
  /** @type {unknown} */
  let timer = null;

  async function run() {
    timer = null;
    if (stopped || left <= 0) return;
    left -= 1;
    let done = false;
    try {
      done = await check();
    } catch {
      done = false;
    }
    if (done || stopped || left <= 0) return;
    timer = env.setTimeout(run, wait);
    wait = Math.min(max, wait * growth);
  }

  timer = env.setTimeout(run, first);
  return () => {
    stopped = true;
    env.clearTimeout(timer);
  };
}

/**
 * GET `url` as JSON (null for an answer that is not 2xx).
 * @param {string} url
 * @returns {Promise<any>}
 */
export async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  return response.ok ? response.json() : null;
}

/**
 * Put the server's HTML fragment at `url` in `target` (its content replaced)
 * when the answer is 2xx; any other answer leaves it as it is. A request that
 * fails (offline for a moment) throws: the poller takes it as "not yet".
 * @param {{innerHTML: string}} target
 * @param {string} url
 * @param {Fetcher} [fetcher]
 * @returns {Promise<boolean>} whether the content was replaced
 */
export async function refreshFragment(target, url, fetcher = browserFetch) {
  const response = await fetcher(url, { headers: { Accept: "text/html" } });
  if (!response.ok) return false;
  target.innerHTML = await response.text();
  return true;
}

/**
 * @typedef {object} FragmentOptions
 * @property {number} every milliseconds between an answer and the next request (and before the first)
 * @property {() => boolean} [when] ask only while this says so, read at each turn (default: always)
 */

/**
 * Keep `target` showing the server's fragment at `url`, through `poll`:
 * every `every` milliseconds, one request at a time, until the returned
 * function stops it.
 * @param {{innerHTML: string}} target
 * @param {string} url
 * @param {FragmentOptions} options
 * @param {PollEnv} [env]
 * @returns {() => void}
 */
export function pollFragment(target, url, { every, when = () => true }, env = timers) {
  const fetcher = env.fetch ?? browserFetch;
  return poll(async () => {
    if (when()) await refreshFragment(target, url, fetcher);
    return false;
  }, { first: every, every }, env);
}
