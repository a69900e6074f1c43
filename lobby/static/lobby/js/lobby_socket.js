// A lobby websocket that reconnects by itself (exponential back-off).
export function lobbyUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby/`;
}

export function openLobby({ onOpen = () => {}, onFrame = () => {}, onClose = () => {} } = {}) {
  let socket = null;
  let delay = 500;
  let closedByUs = false;
  const connect = () => {
    socket = new WebSocket(lobbyUrl());
    socket.addEventListener("open", () => { delay = 500; onOpen(); });
    socket.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      onFrame(frame);
    });
    socket.addEventListener("close", () => {
      if (closedByUs) return;
      onClose();
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    });
  };
  connect();
  return {
    send(frame) {
      if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(frame)); return true; }
      return false;
    },
    close() { closedByUs = true; if (socket) socket.close(); },
  };
}

export function showCounts(root, frame) {
  const searching = Object.values(frame.searching || {}).reduce((a, b) => a + b, 0);
  root.querySelectorAll("[data-online]").forEach((el) => { el.textContent = String(frame.online); });
  root.querySelectorAll("[data-searching]").forEach((el) => { el.textContent = String(searching); });
  for (const [mode, count] of Object.entries(frame.searching || {})) {
    root.querySelectorAll(`[data-searching-mode="${mode}"]`).forEach((el) => { el.textContent = String(count); });
  }
}

/** A friend's invitation to a private table (an `invited` frame). */
export function showInvitation(root, frame) {
  const banner = root.querySelector("[data-invitation-banner]");
  if (!banner) return;
  banner.querySelector("[data-from]").textContent = frame.from;
  banner.querySelector("[data-join]").href = frame.url;
  banner.hidden = false;
}
