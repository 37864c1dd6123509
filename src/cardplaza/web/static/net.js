// The WebSocket connection of one seat, with automatic reconnection.

export class Connection {
  /** onMessage(msg) for every server message; onStatus("open" | "closed" | "gone"). */
  constructor(table, token, onMessage, onStatus) {
    this.table = table;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.closed = false;
    this.delay = 300;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 300;
      ws.send(JSON.stringify({ type: "join", table: this.table, token: this.token }));
      this.onStatus("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "error" && (msg.code === "unknown_table" || msg.code === "bad_token")
          && !this.joined) {
        this.closed = true;
        this.onStatus("gone");
        ws.close();
        return;
      }
      if (msg.type === "state") this.joined = true;
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus("closed");
      this.joined = false;
      setTimeout(() => { if (!this.closed) this.open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
