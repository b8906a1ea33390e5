// What every game page of the newer games (LOTR, Admiral) shares: the websocket per seat this browser
// holds (two for hot-seat) or one as a spectator, the seat on screen and the hot-seat curtain, the
// header and status lines, the result, invite and join boxes, resigning, the seat link and toasts.
// The server is the only judge: a page sends what the player intends and draws what the server sends.
//
// A page calls startLive({...}) with its seat names and a render(ctx) function that draws the board
// and its own panels; ctx holds the message on screen and a send() for the seat on screen.
import { api, capitalize, el, saveGame, storedGame } from "./common.js";

const $ = (id) => document.getElementById(id);

export function startLive(opts) {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const seatNames = opts.seatNames; // e.g. ["evil", "good"]
  const label = (s) => capitalize(seatNames[s] ?? "");
  let stored = storedGame(gameId);
  const conns = new Map(); // seat (or "watch") -> Conn
  const states = new Map(); // seat (or "watch") -> latest state message
  let shown = null;
  let curtainUp = false;
  let curtainSeat = null;
  let waiting = false;

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const token = params.get("token");
    const seat = params.get("seat");
    if (token && (seat === "0" || seat === "1")) {
      stored.seats[seat] = token;
      saveGame(gameId, stored);
    }
    const invite = params.get("invite");
    if (token || invite) history.replaceState(null, "", location.pathname);
    return invite;
  }
  const inviteFromLink = readHash();

  class Conn {
    constructor(seat, token) {
      this.seat = seat;
      this.token = token;
      this.ws = null;
      this.retry = 0;
      this.counter = 0;
      this.stopped = false;
      this.open();
    }

    open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
      this.ws = ws;
      ws.onopen = () => {
        this.retry = 0;
        ws.send(JSON.stringify(this.token ? { type: "hello", token: this.token } : { type: "hello" }));
        updateConnection();
      };
      ws.onmessage = (event) => this.receive(JSON.parse(event.data));
      ws.onclose = () => {
        updateConnection();
        waiting = false;
        if (this.stopped) return;
        const delay = Math.min(10000, 500 * 2 ** this.retry++);
        setTimeout(() => this.open(), delay);
      };
    }

    send(msg) {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        toast("Not connected: the page reconnects by itself, try again in a moment.");
        return false;
      }
      this.ws.send(JSON.stringify({ ...msg, id: `${this.seat}-${++this.counter}` }));
      waiting = true;
      render();
      return true;
    }

    receive(msg) {
      if (msg.type === "state") {
        states.set(this.seat, msg);
        render();
      } else if (msg.type === "ack") {
        waiting = false;
        render();
      } else if (msg.type === "error") {
        waiting = false;
        if (msg.error === "forbidden" && !states.has(this.seat) && this.seat !== "watch") {
          this.stopped = true;
          delete stored.seats[this.seat];
          saveGame(gameId, stored);
          toast(`Your seat token was refused: ${msg.message}`);
          start();
          return;
        }
        if (msg.error === "not_found") {
          this.stopped = true;
          $("title").textContent = "No such game";
          $("turn-text").textContent = msg.message;
          return;
        }
        toast(msg.message);
        render();
      }
    }
  }

  function updateConnection() {
    const all = [...conns.values()];
    const online = all.length > 0 && all.every((c) => c.ws && c.ws.readyState === WebSocket.OPEN);
    $("conn").textContent = online ? "online" : "reconnecting…";
    $("conn").classList.toggle("online", online);
  }

  function start() {
    for (const c of conns.values()) {
      c.stopped = true;
      if (c.ws) c.ws.close();
    }
    conns.clear();
    states.clear();
    const seats = Object.keys(stored.seats).map(Number).sort();
    if (seats.length === 0) conns.set("watch", new Conn("watch", null));
    else for (const s of seats) conns.set(s, new Conn(s, stored.seats[s]));
    shown = seats.length ? seats[0] : null;
  }

  function latest() {
    let best = null;
    for (const m of states.values()) if (!best || m.game.seq > best.game.seq) best = m;
    return best;
  }

  function mySeats() {
    return [...conns.keys()].filter((k) => k !== "watch");
  }

  function isHotseat() {
    return mySeats().length === 2;
  }

  function seatToShow() {
    const seats = mySeats();
    if (seats.length === 0) return null;
    if (seats.length === 1) return seats[0];
    const game = latest()?.game;
    if (!game || game.status === "over") return shown ?? seats[0];
    if (game.status === "setup") {
      for (const s of seats) {
        const st = states.get(s);
        if (st && st.setup && !st.setup.done) return s;
      }
      return shown ?? seats[0];
    }
    return game.to_move ?? shown ?? seats[0];
  }

  // Hot-seat: the device is passed (behind a curtain) only when the next seat's screen would show
  // something the other seat may not see; in a game of open information (most of Admiral) it is not.
  function needsCurtain(from, to) {
    const a = states.get(from);
    const b = states.get(to);
    if (!a || !b || !opts.sameScreen) return true;
    if (a.game.seq !== b.game.seq) return null; // one seat's news is still on its way: decide when it comes
    return !opts.sameScreen(a, b);
  }

  function render() {
    const top = latest();
    if (!top) return;
    const next = seatToShow();
    let hold = false;
    if (isHotseat() && next !== shown && top.game.status !== "over" && shown !== null && !curtainUp) {
      const curtain = needsCurtain(shown, next);
      if (curtain === null) {
        hold = true;
      } else if (curtain) {
        curtainUp = true;
        curtainSeat = next;
        $("curtain-text").textContent = `${label(next)}'s turn`;
        $("curtain-sub").textContent = `Pass the device to ${label(next)}: the other player must not see this screen.`;
        $("curtain-button").textContent = `I am ${label(next)}: show my screen`;
        $("curtain-button").onclick = () => {
          curtainUp = false;
          shown = curtainSeat;
          render();
        };
      } else {
        shown = next;
      }
    }
    if (!curtainUp && !hold) shown = next;
    $("curtain").hidden = !curtainUp;
    document.body.classList.toggle("curtained", curtainUp);
    const msg = states.get(shown ?? "watch") || top;
    document.body.dataset.seq = String(msg.game.seq); // for tests and tools: which state is on screen
    document.body.dataset.draft = String((msg.draft || []).length);
    renderHeader(msg);
    renderStatus(msg);
    renderCommon(msg);
    opts.render(context(msg));
  }

  function context(msg) {
    return {
      msg,
      seat: msg.seat,
      shown,
      hotseat: isHotseat(),
      curtainUp,
      waiting,
      over: msg.game.status === "over",
      myTurn: !curtainUp && !waiting && msg.seat !== null && msg.game.to_move === msg.seat && msg.legal.length > 0,
      send: (cmd) => (shown !== null && conns.has(shown) ? conns.get(shown).send(cmd) : false),
      toast,
      rerender: render,
      seatLabel: label,
      you: (s) => (msg.seat === s && !isHotseat() ? " (you)" : ""),
    };
  }

  function renderHeader(msg) {
    const g = msg.game;
    const mode = g.mode === "agent" ? `vs computer (${g.agent})` : g.mode === "hotseat" ? "hot-seat" : "invite game";
    $("title").textContent = `${opts.title(g)} · ${mode} · ${g.id}`;
    document.title = `fogofwar — ${opts.title(g)}`;
  }

  function renderStatus(msg) {
    const g = msg.game;
    const me = msg.seat;
    const dot = $("turn-dot");
    let text;
    if (curtainUp) {
      text = `${label(curtainSeat)}'s turn: pass the device`;
      dot.className = `dot s${curtainSeat}`;
    } else if (g.status === "over") {
      text = "Game over";
      const winner = g.outcome ? g.outcome.winner : null;
      dot.className = winner === null || winner === undefined ? "dot" : `dot s${winner}`;
    } else if (g.status === "setup") {
      const mine = msg.setup;
      if (me === null) text = "The players are setting up";
      else if (mine && !mine.done) text = isHotseat() ? `${label(me)}: ${opts.setupVerb || "set up"}` : `Your turn to ${opts.setupVerb || "set up"}`;
      else text = `Waiting for ${label(1 - me)} to ${opts.setupVerb || "set up"}…`;
      dot.className = me === null ? "dot" : `dot s${me}`;
    } else {
      const mover = g.to_move;
      dot.className = mover === null ? "dot" : `dot s${mover}`;
      if (mover === null) text = "Rolling the dice…";
      else if (me === null) text = `${label(mover)} to play`;
      else if (mover === me) text = isHotseat() ? `${label(me)} to play` : "Your turn";
      else if (g.agent_seat === mover) text = `${label(mover)} (computer) is thinking…`;
      else text = `Waiting for ${label(mover)}…`;
      if (opts.statusDetail) text += opts.statusDetail(msg);
    }
    $("turn-text").textContent = text;
    const you = (s) => (me === s && !isHotseat() ? " (you)" : "");
    $("players").replaceChildren(
      el("span", { class: "dot s0" }), `${g.players[0] || "open seat"}${you(0)}`, "  vs  ",
      el("span", { class: "dot s1" }), `${g.players[1] || "open seat"}${you(1)}`,
      el("div", { class: "small" }, opts.progress ? opts.progress(msg) : `Move ${g.move_count}`),
    );
  }

  function renderCommon(msg) {
    const g = msg.game;
    const me = msg.seat;
    const over = g.status === "over";
    $("result").hidden = !over;
    if (over) {
      const o = g.outcome;
      let head = "";
      if (o) {
        if (o.winner === null || o.winner === undefined) head = `Draw: ${o.reason}`;
        else {
          const mine = isHotseat() || me === null ? "" : o.winner === me ? " — you win!" : " — you lose";
          head = `${label(o.winner)} wins${mine} (${o.reason})`;
        }
      }
      $("result-text").textContent = head;
      $("result-sub").textContent = opts.resultNote ? opts.resultNote(msg) : "";
      $("record-link").href = `/api/games/${encodeURIComponent(gameId)}/record`;
    }
    const canJoin = inviteFromLink && conns.has("watch") && g.open_seats.length > 0;
    $("join").hidden = !canJoin;
    if (canJoin) $("join-seat").textContent = `as ${label(g.open_seats[0])}`;
    const showInvite = stored.invite && g.open_seats.length > 0 && me !== null;
    $("invite").hidden = !showInvite;
    if (showInvite) $("invite-link").value = `${location.origin}/game/${encodeURIComponent(gameId)}#invite=${encodeURIComponent(stored.invite)}`;
    $("resign-button").hidden = over || me === null || curtainUp;
    const token = me !== null ? stored.seats[me] : null;
    $("seat-link-box").hidden = !token || isHotseat();
    if (token) $("seat-link").value = `${location.origin}/game/${encodeURIComponent(gameId)}#seat=${me}&token=${encodeURIComponent(token)}`;
    $("tools").hidden = $("resign-button").hidden && $("seat-link-box").hidden;
  }

  $("resign-button").addEventListener("click", () => {
    if (shown === null) return;
    if (confirm(`Resign this game as ${label(shown)}?`)) conns.get(shown).send({ type: "resign" });
  });
  for (const [button, input] of [["invite-copy", "invite-link"], ["seat-link-copy", "seat-link"]]) {
    $(button).addEventListener("click", async () => {
      $(input).select();
      try {
        await navigator.clipboard.writeText($(input).value);
        toast("Copied.", true);
      } catch {
        toast("Select the link and copy it by hand.");
      }
    });
  }
  $("join-button").addEventListener("click", async () => {
    try {
      const res = await api(`/api/games/${encodeURIComponent(gameId)}/join`, {
        method: "POST", body: { invite: inviteFromLink, name: $("join-name").value.trim() },
      });
      stored = { ...stored, seats: { ...stored.seats, ...res.seats } };
      saveGame(gameId, stored);
      $("join").hidden = true;
      start();
    } catch (err) {
      toast(err.message);
    }
  });

  start();
  return { render, toast };
}

let toastTimer = null;
export function toast(text, ok = false) {
  const t = $("toast");
  t.textContent = text;
  t.className = ok ? "info" : "";
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4500);
}

// --- small SVG helpers for the boards -----------------------------------------------------------
const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export function svgText(attrs, text) {
  const node = svg("text", attrs);
  node.textContent = text;
  return node;
}

export function shuffle(items) {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
