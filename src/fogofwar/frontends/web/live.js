// @ts-check
// What every game page (Stratego, LOTR, Admiral) shares: the websocket per seat this browser holds
// (two for hot-seat) or one as a spectator, the seat on screen and the hot-seat curtain, the header and
// status lines, the result, invite and join boxes, resigning, the seat link and toasts. Their markup is
// page.html's, the shell the server puts around each game's own cards (app.py).
// The server is the only judge: a page sends what the player intends and draws what the server sends.
//
// A page calls startLive({...}) with its seat names and a render(ctx) function that draws the board
// and its own panels; ctx holds the message on screen and a send() for the seat on screen.
import { $, api, $button, capitalize, describeOutcome, el, $form, $input, $link, plainWords, playerName as storedName, saveGame, storedGame } from "./common.js";
import { t } from "./i18n.js";
import { clockLabel, clockLeft, formatClock } from "./clock.js";
import { asPlayer } from "./account.js";
import { startChat } from "./chat.js";
import { follow } from "./delta.js";


const SOUND = "fogofwar.sound";
const soundOn = () => localStorage.getItem(SOUND) === "on";

/** A short, soft tone: your turn (when the player switched sound on). */
function chime() {
  if (!soundOn() || typeof AudioContext !== "function") return;
  const audio = new AudioContext();
  const tone = audio.createOscillator();
  const level = audio.createGain();
  tone.frequency.value = 660;
  level.gain.setValueAtTime(0.08, audio.currentTime);
  level.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  tone.connect(level).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.25);
  tone.onended = () => audio.close();
}

export function startLive(opts) {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const seatNames = opts.seatNames; // e.g. ["evil", "good"]
  const label = (s) => capitalize(t(seatNames[s] ?? ""));
  const seatClass = opts.seatClass || ((s) => `s${s}`); // a seat's colour (its dots)
  const verb = t(opts.setupVerb || "set up");
  // What the page says of the seats: LOTR's and Admiral's words, unless a page has its own (opts.words).
  const words = {
    name: label, // a seat in mid-sentence
    yourSetup: () => t("Your turn to {verb}", { verb }),
    seatSetup: (s) => `${label(s)}: ${verb}`,
    toPlay: (s) => t("{seat} to play", { seat: label(s) }),
    yourTurn: () => t("Your turn"),
    secret: t("this screen"), // what the other player must not see behind the curtain
    screen: t("screen"), // "I am Evil: show my screen"
    ...opts.words,
  };
  let stored = storedGame(gameId);
  const conns = new Map(); // seat (or "watch") -> Conn
  const states = new Map(); // seat (or "watch") -> latest state message
  let shown = null;
  let curtainUp = false;
  let curtainSeat = null;
  let waiting = false;
  let gameGone = false; // the link leads to no game: no more reconnecting
  let wasMine = true; // whether it was this screen's turn at the last drawing (no chime at the first)
  let accounts = null; // who sits where by account, whether rated, the rating changes (/api/games/ID/accounts)
  let accountsAsked = ""; // the game status they were last asked at: again when the game ends
  let accountsAsks = 0; // how many times they were asked: only the last answer is shown

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
      this.syncing = false; // asked for the whole state again (a delta did not follow): the deltas wait for it
      // The server closes a socket that says nothing for ten minutes: a page left open says "ping" each minute.
      this.keepAlive = setInterval(() => {
        if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "ping" }));
      }, 60000);
      this.open();
    }

    open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
      this.ws = ws;
      ws.onopen = () => {
        this.retry = 0;
        this.syncing = false; // a new connection starts with the whole state
        accountsAsked = ""; // and the accounts are asked again with it: a `rated` sent while away is not lost
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

    /** A chat message: it holds up no move (no `waiting`); its id, or null when not connected. */
    sendChat(msg) {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        toast(t("Not connected: the page reconnects by itself, try again in a moment."));
        return null;
      }
      const id = `chat-${this.seat}-${++this.counter}`;
      this.ws.send(JSON.stringify({ ...msg, id }));
      return id;
    }

    send(msg) {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        toast(t("Not connected: the page reconnects by itself, try again in a moment."));
        return false;
      }
      this.ws.send(JSON.stringify({ ...msg, id: `${this.seat}-${++this.counter}` }));
      waiting = true;
      render();
      return true;
    }

    /** A delta did not follow the state held: ask once for the whole state (the deltas until it comes are
     * dropped). */
    sync(held) {
      if (this.syncing || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      this.syncing = true;
      this.ws.send(JSON.stringify({ type: "sync", id: `sync-${this.seat}-${++this.counter}`, ...(held ? { v: held.v } : {}) }));
    }

    receive(msg) {
      if (msg.type === "chat") {
        chat.receive(msg);
      } else if (msg.type === "rated") {
        askAccounts();
      } else if ((msg.type === "ack" || msg.type === "error") && String(msg.id ?? "").startsWith("chat-")) {
        chat.answer(msg); // a chat message's answer: the board is not waiting for it
      } else if ((msg.type === "ack" || msg.type === "error") && String(msg.id ?? "").startsWith("sync-")) {
        this.syncing = false; // up to date after all (ack), or refused: the next gap asks again
      } else if (msg.type === "state" || msg.type === "delta") {
        const held = states.get(this.seat) ?? null;
        const next = follow(held, msg);
        if (next === null) {
          this.sync(held);
          return;
        }
        if (next === held) return; // a delta seen already
        this.syncing = false;
        next.receivedAt = performance.now(); // the clocks count down from here
        states.set(this.seat, next);
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
          toast(t("Your seat token was refused: {message}", { message: msg.message }));
          start();
          return;
        }
        if (msg.error === "not_found") {
          gone(msg.message);
          return;
        }
        if (opts.onError) opts.onError(msg);
        toast(msg.message);
        render();
      }
    }
  }

  // A link to no game (mistyped, or from another server): say so once, stop reconnecting, lead back.
  function gone(message) {
    gameGone = true;
    stopAll();
    $("title").textContent = t("No such game");
    $("conn").textContent = t("no game");
    $("conn").classList.remove("online");
    for (const card of document.querySelectorAll(".panel .card")) /** @type {HTMLElement} */ (card).hidden = true;
    $("board-wrap").hidden = true;
    $("result-text").textContent = t("No such game");
    $("result-sub").textContent = t("This link leads to no game ({message}): it may be mistyped, or the game was on another server.", { message });
    $("replay-link").hidden = true;
    $("record-link").hidden = true;
    $("gravon-link").hidden = true;
    $("result").hidden = false;
  }

  function updateConnection() {
    if (gameGone) return;
    const all = [...conns.values()];
    const online = all.length > 0 && all.every((c) => c.ws && c.ws.readyState === WebSocket.OPEN);
    $("conn").textContent = t(online ? "online" : "reconnecting…");
    $("conn").classList.toggle("online", online);
  }

  /** Close every connection of this page for good (no reconnecting, no keep-alive pings). */
  function stopAll() {
    for (const c of conns.values()) {
      c.stopped = true;
      clearInterval(c.keepAlive);
      if (c.ws) c.ws.close();
    }
  }

  function start() {
    stopAll();
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
        $("curtain-text").textContent = t("{seat}'s turn", { seat: label(next) });
        $("curtain-sub").textContent = t("Pass the device to {seat}: the other player must not see {secret}.", { seat: label(next), secret: words.secret });
        $button("curtain-button").textContent = t("I am {seat}: show my {screen}", { seat: label(next), screen: words.screen });
        $button("curtain-button").onclick = () => {
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
    renderClocks(msg);
    renderCommon(msg);
    chat.render(msg, { isHotseat: isHotseat(), curtainUp });
    opts.render(context(msg));
  }

  const you = (msg, s) => (msg.seat === s && !isHotseat() ? t(" (you)") : ""); // after a seat's name

  function context(msg) {
    return {
      msg,
      gameId,
      seat: msg.seat,
      shown,
      hotseat: isHotseat(),
      curtainUp,
      waiting,
      over: msg.game.status === "over",
      setting: !curtainUp && msg.game.status !== "over" && Boolean(msg.setup && !msg.setup.done), // its setup card shows
      myTurn: !curtainUp && !waiting && msg.seat !== null && msg.game.to_move === msg.seat && msg.legal.length > 0,
      send: (cmd) => (shown !== null && conns.has(shown) ? conns.get(shown).send(cmd) : false),
      toast,
      rerender: render,
      seatLabel: label,
      you: (s) => you(msg, s),
    };
  }

  // The server's names for unnamed players ("Evil", "Club (computer)") in the page's language; a name a person
  // typed stays as typed.
  const playerName = (name) => storedName(name, seatNames);

  function renderHeader(msg) {
    const g = msg.game;
    const mode = g.mode === "agent" ? t("vs {player}", { player: playerName(g.players[g.agent_seat]) }) : t(g.mode === "hotseat" ? "hot-seat" : "invite game");
    $("title").textContent = `${opts.title(g)} · ${mode} · ${g.id}`;
    // Your turn shows in the tab (another tab in front still tells), and a short tone says so if asked for.
    const mine = !curtainUp && g.status !== "over" && msg.seat !== null && (g.to_move === msg.seat || (g.status === "setup" && msg.setup && !msg.setup.done));
    document.title = `${mine ? `● ${t("Your turn")} — ` : ""}fogofwar — ${opts.title(g)}`;
    if (mine && !wasMine) chime();
    wasMine = mine;
  }

  function renderStatus(msg) {
    const g = msg.game;
    const me = msg.seat;
    const dot = $("turn-dot");
    let text;
    const dotOf = (s) => (s === null || s === undefined ? "dot" : `dot ${seatClass(s)}`);
    if (curtainUp) {
      text = t("{seat}'s turn: pass the device", { seat: label(curtainSeat) });
      dot.className = dotOf(curtainSeat);
    } else if (g.status === "over") {
      text = t("Game over");
      dot.className = dotOf(g.outcome ? g.outcome.winner : null);
    } else if (g.status === "setup") {
      const mine = msg.setup;
      if (me === null) text = t("The players are setting up");
      else if (mine && !mine.done) text = isHotseat() ? words.seatSetup(me) : words.yourSetup();
      else text = t("Waiting for {seat} to {verb}…", { seat: words.name(1 - me), verb });
      dot.className = dotOf(me);
    } else {
      const mover = g.to_move;
      dot.className = dotOf(mover);
      if (mover === null) text = t("Rolling the dice…");
      else if (me === null) text = words.toPlay(mover);
      else if (mover === me) text = isHotseat() ? words.toPlay(me) : words.yourTurn();
      else if (g.agent_seat === mover) text = t("{seat} (computer) is thinking…", { seat: label(mover) });
      else text = t("Waiting for {seat}…", { seat: words.name(mover) });
      if (opts.statusDetail) text += opts.statusDetail(msg);
    }
    $("turn-text").textContent = text;
    // A player with an account links to their profile (and its rating, once the game is rated).
    const who = (s) => {
      const account = accounts?.seats?.[String(s)];
      const text = `${account ? account.name : playerName(g.players[s])}${you(msg, s)}`;
      return account ? el("a", { href: `/player/${encodeURIComponent(account.name)}` }, text) : text;
    };
    $("players").replaceChildren(
      el("span", { class: dotOf(0) }), who(0), `  ${t("vs")}  `,
      el("span", { class: dotOf(1) }), who(1),
      accounts?.rated ? el("span", { class: "badge play" }, t("Rated")) : "",
      el("div", { class: "small" }, opts.progress ? opts.progress(msg) : t("Move {n}", { n: g.move_count })),
    );
    if (accountsAsked !== g.status && (accountsAsked === "" || g.status === "over")) {
      accountsAsked = g.status;
      askAccounts();
    }
  }

  /** Who sits where by account, whether rated, and a finished game's rating changes: asked when the page
   * first shows the game, when the game ends, and when the server says the ratings are written (`rated`: later
   * than the end on a busy server). */
  function askAccounts() {
    const asked = ++accountsAsks;
    api(`/api/games/${encodeURIComponent(gameId)}/accounts`).then((a) => {
      if (asked !== accountsAsks) return; // a later answer is on its way (the one that holds the rating)
      accounts = a;
      render();
    }).catch(() => {});
  }

  /** Each seat's time left, the running clock counting down between the server's messages (a timer redraws
   * it); the server ends the game when a clock reaches zero. */
  function renderClocks(msg) {
    const clock = msg.clock;
    $("clocks").hidden = !clock;
    if (!clock) return;
    const over = msg.game.status === "over";
    const left = clockLeft(clock, over ? 0 : (performance.now() - (msg.receivedAt ?? performance.now())) / 1000);
    const low = (s) => !clock.control.per_move && s < Math.min(30, (clock.control.initial || 0) / 10);
    $("clocks").replaceChildren(
      ...[0, 1].map((s) => el("div", {
        class: `clock${clock.running === s && !over ? " running" : ""}${low(left[s]) ? " low" : ""}`,
        "data-seat": String(s),
        "aria-label": t("{seat}'s clock", { seat: label(s) }),
      }, el("span", { class: dotOfSeat(s) }), el("span", { class: "clock-time" }, formatClock(left[s])))),
      el("div", { class: "small muted clock-control" }, clockLabel(clock.control.label)),
    );
  }
  const dotOfSeat = (s) => `dot ${seatClass(s)}`;
  setInterval(() => {
    const msg = states.get(shown ?? "watch") || latest();
    if (msg && msg.clock && msg.clock.running !== null && msg.game.status !== "over") renderClocks(msg);
  }, 200);

  function renderCommon(msg) {
    const g = msg.game;
    const me = msg.seat;
    const over = g.status === "over";
    $("result").hidden = !over;
    if (over) {
      $("result-text").textContent = describeOutcome(g.outcome, isHotseat() ? null : me, label);
      $("result-sub").replaceChildren(...[opts.resultNote ? opts.resultNote(msg) : ""].flat()); // text or nodes
      // The record to download; a game with a replay viewer (opts.replay) and a Gravon XML record
      // (opts.gravon, Stratego's) links to them too.
      const path = `/api/games/${encodeURIComponent(gameId)}`;
      const gravon = Boolean(opts.gravon && opts.gravon(g));
      $link("record-link").href = `${path}/record`;
      $link("record-link").textContent = t(gravon ? "Record (JSON)" : "Download record");
      $link("record-link").classList.toggle("primary", !opts.replay);
      $link("replay-link").hidden = !opts.replay;
      $link("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;
      $link("gravon-link").hidden = !gravon;
      $link("gravon-link").href = `${path}/record?format=gravon`;
    }
    // A rematch for whoever played (the same opponent, the sides swapped); hot-seat asks as the first seat.
    // Between two people the first to ask makes the new game and the other is offered its seat.
    const rematchOffer = over && msg.rematch && !isHotseat() ? msg.rematch : null;
    const offered = rematchOffer !== null && me !== null && rematchOffer.by !== me;
    $button("rematch-button").hidden = !over || me === null || (rematchOffer !== null && !offered);
    $button("rematch-button").textContent = offered ? t("Accept the rematch") : t("Rematch");
    $("rematch-note").hidden = rematchOffer === null || me === null;
    const changes = over && accounts ? Object.entries(accounts.seats).filter(([, a]) => a.rating) : [];
    $("rating-note").hidden = changes.length === 0;
    $("rating-note").textContent = changes.map(([, a]) => {
      const diff = a.rating.after - a.rating.before;
      return t("{name}: rating {before} → {after} ({diff})", { name: a.name, before: a.rating.before, after: a.rating.after, diff: diff >= 0 ? `+${diff}` : String(diff) });
    }).join(" · ");
    if (rematchOffer !== null) {
      $("rematch-note").textContent = offered ? t("{seat} asks for a rematch, sides swapped.", { seat: label(rematchOffer.by) }) : t("Your rematch waits for your opponent.");
    }
    $button("sound-button").hidden = me === null || over; // a spectator has no turn to be told of
    const invited = inviteFromLink && conns.has("watch"); // came by an invitation, holding no seat yet
    const canJoin = invited && g.open_seats.length > 0;
    $("join").hidden = !canJoin;
    $("join-used").hidden = !(invited && g.open_seats.length === 0);
    if (canJoin) $("join-seat").textContent = `as ${words.name(g.open_seats[0])}`;
    const showInvite = stored.invite && g.open_seats.length > 0 && me !== null;
    $("invite").hidden = !showInvite;
    if (showInvite) $input("invite-link").value = `${location.origin}/game/${encodeURIComponent(gameId)}#invite=${encodeURIComponent(stored.invite)}`;
    $button("resign-button").hidden = over || me === null || curtainUp;
    // Draws are agreed between two players: an offer, and the other's answer (the computer takes none).
    const offer = msg.draw_offer ?? null;
    const people = g.mode !== "agent" && g.status === "play" && !over && me !== null && !curtainUp;
    $button("draw-button").hidden = !people || offer !== null;
    // A game can be called off in its first moves (the server says until when: ABORT_BEFORE).
    $button("abort-button").hidden = over || me === null || curtainUp || (g.status === "play" && g.move_count >= 2);
    $("draw-card").hidden = !people || offer === null;
    if (people && offer !== null) {
      const theirs = offer !== me;
      $("draw-text").textContent = theirs ? t("{seat} offers a draw.", { seat: label(offer) }) : t("Your offer of a draw waits for an answer.");
      $button("draw-accept").hidden = !theirs;
      $button("draw-decline").hidden = !theirs;
    }
    // Moves can be typed too (opts.typedMoves: the notation the server reads), for the keyboard.
    $form("move-form").hidden = !opts.typedMoves || over || me === null || curtainUp || g.status === "setup" || g.to_move !== me;
    const token = me !== null ? stored.seats[me] : null;
    $("seat-link-box").hidden = !token || isHotseat();
    if (token) $input("seat-link").value = `${location.origin}/game/${encodeURIComponent(gameId)}#seat=${me}&token=${encodeURIComponent(token)}`;
    const tools = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#tools > .row > *")), $("seat-link-box"), $form("move-form")]; // a page may add its own
    $("tools").hidden = tools.every((t) => t.hidden);
  }

  // Chat goes out on the connection on screen (a spectator's, or the seat shown).
  const chat = startChat({
    gameId,
    seatClass,
    playerName,
    send: (cmd) => {
      const conn = conns.get(shown ?? "watch") || conns.get("watch");
      return conn ? conn.sendChat(cmd) : null;
    },
  });

  const soundButton = $button("sound-button");
  const showSound = () => { soundButton.textContent = t(soundOn() ? "Sound: on" : "Sound: off"); };
  soundButton.addEventListener("click", () => {
    localStorage.setItem(SOUND, soundOn() ? "off" : "on");
    showSound();
    if (soundOn()) chime();
  });
  showSound();

  const sendShown = (type) => shown !== null && conns.has(shown) && conns.get(shown).send({ type });
  $button("draw-button").addEventListener("click", () => {
    if (confirm(t("Offer your opponent a draw?"))) sendShown("offer_draw");
  });
  $button("draw-accept").addEventListener("click", () => sendShown("accept_draw"));
  $button("abort-button").addEventListener("click", () => {
    if (confirm(t("Abort this game? It ends without a result."))) sendShown("abort");
  });
  $button("draw-decline").addEventListener("click", () => sendShown("decline_draw"));

  $button("rematch-button").addEventListener("click", async () => {
    const seat = latest()?.seat ?? null;
    const token = seat !== null ? stored.seats[seat] : null;
    if (!token) return;
    $button("rematch-button").disabled = true;
    try {
      const res = await asPlayer(`/api/games/${encodeURIComponent(gameId)}/rematch`, { method: "POST", token });
      saveGame(res.game.id, { seats: res.seats, invite: res.invite, created: Date.now() });
      location.href = res.url;
    } catch (err) {
      toast(err.message);
      $button("rematch-button").disabled = false;
    }
  });

  $form("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $input("move-input").value.trim();
    if (!text || shown === null || !conns.has(shown)) return;
    if (conns.get(shown).send({ type: "action", move: text })) $input("move-input").value = "";
  });
  $button("resign-button").addEventListener("click", () => {
    if (shown === null) return;
    if (confirm(t("Resign this game as {seat}?", { seat: words.name(shown) }))) conns.get(shown).send({ type: "resign" });
  });
  for (const [button, input] of [["invite-copy", "invite-link"], ["seat-link-copy", "seat-link"]]) {
    $(button).addEventListener("click", async () => {
      $input(input).select();
      try {
        await navigator.clipboard.writeText($input(input).value);
        toast(t("Copied."), true);
      } catch {
        toast(t("Select the link and copy it by hand."));
      }
    });
  }
  $button("join-button").addEventListener("click", async () => {
    try {
      const res = await api(`/api/games/${encodeURIComponent(gameId)}/join`, {
        method: "POST", body: { invite: inviteFromLink, name: $input("join-name").value.trim() },
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

/** Fills page.html's move list with `items` (li elements); one scrolled to the bottom follows the newest. */
export function showMoves(items) {
  const list = $("move-list");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...items);
  if (atBottom || items.length < 12) list.scrollTop = list.scrollHeight;
}

let toastTimer = null;
export function toast(text, ok = false) {
  const box = $("toast");
  const { text: words, ids } = plainWords(text); // rule ids on demand: in the tooltip
  box.textContent = words;
  box.title = ids.length ? `${t("Rules")}: ${ids.join(", ")}` : "";
  box.className = ok ? "info" : "";
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4500);
}

export function shuffle(items) {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
