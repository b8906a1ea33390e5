// The game page: one websocket per seat this browser holds (two for hot-seat), or one as a
// spectator. The server is the only judge: this page sends what the player intends and
// draws whatever state the server pushes back; it never decides a rule on its own.
import {
  api, capitalize, describeOutcome, el, notation, parseSquare, RANK_ORDER, rankLabel, rankSymbol,
  saveGame, SEAT_NAMES, setNotation, storedGame,
} from "./common.js";
import { drawBoard } from "./board.js";
import { deleteSetup, loadSetup, savedSetups, saveSetup, SetupEditor } from "./setup_editor.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

let stored = storedGame(gameId);
const conns = new Map(); // seat (or "watch") -> Conn
const states = new Map(); // seat (or "watch") -> latest state message
let shown = null; // the seat whose view is on screen (null: spectator)
let curtainUp = false;
let curtainSeat = null; // hot-seat: the seat the device must be passed to
let selected = null;
let waiting = false; // a command is on its way: no second one until it is answered
// The setup being arranged (drag and drop, keys, or loaded from random / sample / string / saved).
const editor = new SetupEditor({
  svg: $("board"),
  tray: $("setup-tray"),
  status: $("setup-status"),
  label: (rank) => ({ sym: rankSymbol(rank), name: rank }),
  order: RANK_ORDER,
  sideClass: () => SEAT_NAMES[shown ?? 0],
  onChange: () => {
    render();
    checkSetupSoon();
  },
});

// --- hash parameters: #token=... (resume on another device), #invite=... (join) -------------
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

// --- connections ----------------------------------------------------------------------------
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
    return true;
  }

  receive(msg) {
    if (msg.type === "state") {
      states.set(this.seat, msg);
      render();
    } else if (msg.type === "ack") {
      waiting = false;
    } else if (msg.type === "error") {
      waiting = false;
      if (msg.error === "forbidden" && !states.has(this.seat) && this.seat !== "watch") {
        // This browser's token no longer opens the seat: forget it and watch instead.
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
      if (msg.error === "bad_setup") editor.say(msg.message, "bad");
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
  if (seats.length === 0) {
    conns.set("watch", new Conn("watch", null));
  } else {
    for (const s of seats) conns.set(s, new Conn(s, stored.seats[s]));
  }
  shown = seats.length ? seats[0] : null;
}

// --- which view is on screen ------------------------------------------------------------------
function latest() {
  let best = null;
  for (const m of states.values()) if (!best || m.game.seq > best.game.seq) best = m;
  return best;
}

function seatToShow() {
  const seats = [...conns.keys()].filter((k) => k !== "watch");
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
  return game.to_move;
}

function isHotseat() {
  return [...conns.keys()].filter((k) => k !== "watch").length === 2;
}

// --- rendering ----------------------------------------------------------------------------------
function render() {
  const top = latest();
  if (!top) return;
  const next = seatToShow();
  if (isHotseat() && next !== shown && top.game.status !== "over" && shown !== null) {
    curtainUp = true;
    curtainSeat = next;
    selected = null;
    $("curtain-text").textContent = `${capitalize(SEAT_NAMES[next])}'s turn`;
    $("curtain-sub").textContent = `Pass the device to ${capitalize(SEAT_NAMES[next])}: the other player must not see these pieces.`;
    $("curtain-button").textContent = `I am ${capitalize(SEAT_NAMES[next])}: show my board`;
    $("curtain-button").onclick = () => {
      curtainUp = false;
      shown = next;
      render();
    };
  }
  if (!curtainUp) shown = next;
  $("curtain").hidden = !curtainUp;
  const msg = states.get(shown ?? "watch") || top;
  renderHeader(msg);
  renderStatus(msg);
  renderPanels(msg);
  renderBoard(msg);
}

function renderHeader(msg) {
  const g = msg.game;
  const mode = g.mode === "agent" ? `vs computer (${g.agent})` : g.mode === "hotseat" ? "hot-seat" : "invite game";
  $("title").textContent = `Stratego ${g.variant} · ${mode} · ${g.id}`;
  document.title = `fogofwar — Stratego ${g.variant}`;
}

function renderStatus(msg) {
  const g = msg.game;
  const me = msg.seat;
  const dot = $("turn-dot");
  let text;
  if (curtainUp) {
    text = `${capitalize(SEAT_NAMES[curtainSeat])}'s turn: pass the device`;
    dot.className = `dot ${SEAT_NAMES[curtainSeat]}`;
  } else if (g.status === "over") {
    text = "Game over";
    const winner = g.outcome ? g.outcome.winner : null;
    dot.className = winner === null || winner === undefined ? "dot" : `dot ${SEAT_NAMES[winner]}`;
  } else if (g.status === "setup") {
    const mine = msg.setup;
    if (me === null) text = "The players are setting up";
    else if (mine && !mine.done) text = isHotseat() ? `${capitalize(SEAT_NAMES[me])}: set up your army` : "Set up your army";
    else text = `Waiting for ${SEAT_NAMES[1 - me]} to set up…`;
    dot.className = me === null ? "dot" : `dot ${SEAT_NAMES[me]}`;
  } else {
    const mover = g.to_move;
    dot.className = `dot ${SEAT_NAMES[mover]}`;
    if (me === null) text = `${capitalize(SEAT_NAMES[mover])} to move`;
    else if (mover === me) text = isHotseat() ? `${capitalize(SEAT_NAMES[me])} to move` : "Your move";
    else if (g.agent_seat === mover) text = `${capitalize(SEAT_NAMES[mover])} (computer) is thinking…`;
    else text = `Waiting for ${SEAT_NAMES[mover]}…`;
  }
  $("turn-text").textContent = text;
  const you = (s) => (me === s && !isHotseat() ? " (you)" : "");
  $("players").replaceChildren(
    el("span", { class: "dot red" }), `${g.players[0] || "open seat"}${you(0)}`, "  vs  ",
    el("span", { class: "dot blue" }), `${g.players[1] || "open seat"}${you(1)}`,
    el("div", { class: "small" }, `Move ${g.move_count}${g.options.max_moves ? ` of at most ${g.options.max_moves}` : ""}`),
  );
}

function renderPanels(msg) {
  const g = msg.game;
  const me = msg.seat;
  const over = g.status === "over";
  // Result.
  $("result").hidden = !over;
  if (over) {
    $("result-text").textContent = describeOutcome(g.outcome, isHotseat() ? null : me);
    const setups = msg.setups ? Object.entries(msg.setups).filter(([, s]) => s) : [];
    $("result-sub").replaceChildren(
      `${g.move_count} moves. Every piece is shown now; dashed ones stayed hidden to the end.`,
      ...setups.map(([s, t]) => el("div", { class: "setup-line" }, `${capitalize(SEAT_NAMES[s])}'s setup: `, el("code", {}, t))),
    );
    $("record-link").href = `/api/games/${encodeURIComponent(gameId)}/record`;
    $("gravon-link").href = `/api/games/${encodeURIComponent(gameId)}/record?format=gravon`;
    $("gravon-link").hidden = g.game !== "stratego";
    $("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;
  }
  // Join (invite link, no seat here yet).
  const canJoin = inviteFromLink && conns.has("watch") && g.open_seats.length > 0;
  $("join").hidden = !canJoin;
  if (canJoin) $("join-seat").textContent = `as ${SEAT_NAMES[g.open_seats[0]]}`;
  // Invite link for the creator while the seat is open.
  const showInvite = stored.invite && g.open_seats.length > 0 && me !== null;
  $("invite").hidden = !showInvite;
  if (showInvite) $("invite-link").value = `${location.origin}/game/${encodeURIComponent(gameId)}#invite=${encodeURIComponent(stored.invite)}`;
  // Setup.
  const setup = msg.setup;
  const setting = Boolean(!over && setup && !setup.done && !curtainUp);
  $("setup").hidden = !setting;
  editor.setActive(setting);
  if (setting) renderSetup(msg);
  // Last move.
  const last = msg.view.last_move;
  $("last").hidden = !last;
  if (last) $("last-text").replaceChildren(...describeMove(last, me));
  // Captured.
  for (const owner of [0, 1]) {
    const chips = (msg.view.captured[owner] || []).slice().sort((a, b) => RANK_ORDER.indexOf(a) - RANK_ORDER.indexOf(b));
    $(`captured-${owner}`).replaceChildren(...chips.map((r) => el("span", { class: `chip ${SEAT_NAMES[owner]}`, title: r }, rankSymbol(r))));
  }
  // Move list.
  const list = $("move-list");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...msg.moves.map((m) => el("li", { class: SEAT_NAMES[m.player] }, ...moveLine(m))));
  if (atBottom || msg.moves.length < 12) list.scrollTop = list.scrollHeight;
  // Tools.
  $("resign-button").hidden = over || me === null || curtainUp;
  $("notation-button").textContent = notation() === "classic" ? "Ranks: 1 = marshal" : "Ranks: 10 = marshal";
  const token = me !== null ? stored.seats[me] : null;
  $("seat-link-box").hidden = !token || isHotseat();
  if (token) $("seat-link").value = `${location.origin}/game/${encodeURIComponent(gameId)}#seat=${me}&token=${encodeURIComponent(token)}`;
}

function moveLine(m) {
  const parts = [el("b", {}, m.notation)];
  if (m.result) {
    const outcome = { attacker_won: "attacker wins", defender_won: "defender wins", both_lost: "both lost" }[m.result];
    parts.push(" ", el("span", { class: "battle" }, `${rankSymbol(m.attacker)} × ${rankSymbol(m.defender)}: ${outcome}`));
  } else if (m.attacker) {
    parts.push(" ", el("span", { class: "battle" }, `(${m.attacker})`));
  }
  return parts;
}

function describeMove(m, me) {
  const who = me === null || isHotseat() ? capitalize(SEAT_NAMES[m.player]) : m.player === me ? "You" : capitalize(SEAT_NAMES[m.player]);
  const other = capitalize(SEAT_NAMES[1 - m.player]);
  if (!m.result) {
    const scout = m.attacker ? ` — a ${rankLabel(m.attacker)}, shown by its long move` : "";
    return [`${who} moved ${m.from}–${m.to}${scout}.`];
  }
  const verdict = {
    attacker_won: `the ${m.attacker} wins and takes ${m.to}`,
    defender_won: `${other}'s ${m.defender} holds`,
    both_lost: "both pieces are lost",
  }[m.result];
  return [
    el("div", {}, `${who} attacked ${m.from}×${m.to}:`),
    el("div", { class: "big" },
      el("span", { class: `chip ${SEAT_NAMES[m.player]}` }, rankSymbol(m.attacker)), ` ${m.attacker}  vs  `,
      el("span", { class: `chip ${SEAT_NAMES[1 - m.player]}` }, rankSymbol(m.defender)), ` ${m.defender}`),
    el("div", {}, `${capitalize(verdict)}.`),
  ];
}

function renderSetup(msg) {
  const setup = msg.setup;
  editor.configure(`${gameId}:${msg.seat}`, { area: setup.area, roster: setup.roster });
  $("setup-symbols").textContent = "1 marshal … 9 scout, S spy, B bomb, F flag";
  $("setup-random").disabled = !setup.random;
  const sample = $("setup-sample");
  if (sample.dataset.filled !== "1") {
    sample.replaceChildren(...setup.samples.map((s) => el("option", { value: s }, s)));
    sample.dataset.filled = "1";
  }
  $("setup-sample-button").disabled = setup.samples.length === 0;
  const saved = Object.keys(savedSetups(msg.game.game, msg.game.variant)).sort();
  const select = $("setup-saved");
  const current = [...select.options].map((o) => o.value).join("\n");
  if (current !== saved.join("\n")) {
    const keep = select.value;
    select.replaceChildren(...saved.map((name) => el("option", { value: name }, name)));
    if (saved.includes(keep)) select.value = keep;
  }
  select.disabled = $("setup-load").disabled = $("setup-delete").disabled = saved.length === 0;
  if (!saved.length) select.replaceChildren(el("option", { value: "" }, "no saved setups"));
  $("setup-save").disabled = editor.placed() === 0;
  $("setup-confirm").disabled = editor.placed() === 0 || waiting;
}

function renderBoard(msg) {
  const root = $("board");
  if (curtainUp) {
    drawBoard(root, { board: new Array(100).fill(null), perspective: shown ?? 0 });
    return;
  }
  const g = msg.game;
  const me = msg.seat;
  const perspective = me ?? 0;
  const over = g.status === "over";
  let board = msg.view.board;
  const wasHidden = new Set();
  let isPreview = false;
  let area = new Set();
  if (over && msg.final) {
    msg.view.board.forEach((cell, sq) => {
      const full = msg.final.board[sq];
      if (full && full !== "lake" && !full.revealed && (me === null || full.owner !== me)) wasHidden.add(sq);
    });
    board = msg.final.board;
  } else if (msg.setup) {
    const placement = msg.setup.done ? msg.setup.placement : editor.active ? editor.placement() : null;
    if (placement && Object.keys(placement).length) {
      board = board.slice();
      for (const [name, rank] of Object.entries(placement)) {
        board[parseSquare(name)] = { owner: me, rank, moved: false, revealed: false };
      }
      isPreview = !msg.setup.done;
    }
    if (!msg.setup.done) area = new Set(msg.setup.area);
  }
  // Legal moves of the seat on screen: from-square -> {to-square: action id}.
  const moves = new Map();
  if (!over && me !== null && g.to_move === me && !waiting) {
    for (const a of msg.legal) {
      const from = Math.floor(a / 100);
      if (!moves.has(from)) moves.set(from, new Map());
      moves.get(from).set(a % 100, a);
    }
  }
  if (selected !== null && !moves.has(selected)) selected = null;
  const targets = new Map();
  if (selected !== null) {
    for (const to of moves.get(selected).keys()) {
      const cell = board[to];
      targets.set(to, cell && cell !== "lake" && cell.owner !== me ? "attack" : "move");
    }
  }
  const lm = msg.view.last_move;
  const lastMove = lm && !isPreview ? { from: parseSquare(lm.from), to: parseSquare(lm.to), battle: Boolean(lm.result) } : null;
  const clickable = new Set([...moves.keys(), ...targets.keys(), ...(editor.active ? area : [])]);
  drawBoard(root, {
    board, perspective, me, selected, targets, movable: new Set(moves.keys()), lastMove, area, wasHidden,
    preview: isPreview, final: over, clickable,
  });
  editor.decorate();
  root.onclick = (event) => {
    const hit = event.target.closest("[data-sq]");
    if (!hit) return;
    const sq = Number(hit.dataset.sq);
    if (selected !== null && moves.get(selected)?.has(sq)) {
      const action = moves.get(selected).get(sq);
      selected = null;
      conns.get(me).send({ type: "action", action });
      render();
    } else if (moves.has(sq)) {
      selected = sq === selected ? null : sq;
      render();
    } else if (selected !== null) {
      selected = null;
      render();
    }
  };
}

// --- setup actions ---------------------------------------------------------------------------------
// The server reads every setup: random, sample and string setups come from it, and an arrangement
// made by hand is checked by it (the setup string appears once it is complete and legal).
function setupMsg() {
  return shown === null ? null : states.get(shown);
}

async function previewSetup(spec) {
  const msg = setupMsg();
  if (!msg) return;
  try {
    const res = await api("/api/setup-preview", {
      method: "POST",
      body: { game: msg.game.game, variant: msg.game.variant, seat: shown, setup: spec },
    });
    checked = JSON.stringify(res.placement);
    checkGen++;
    editor.load(res.placement);
    $("setup-string").value = res.string || "";
    editor.say(editor.leftCount() ? `Loaded; ${editor.leftCount()} pieces left in the tray.` : "Ready: confirm to play.", "good");
  } catch (err) {
    editor.say(err.message, "bad");
    toast(err.message);
  }
}

let checked = ""; // the last placement the server has read
let checkTimer = null;
let checkGen = 0; // a check answered after something newer (a load, a confirm) is dropped
function checkSetupSoon() {
  const left = editor.leftCount();
  if (left) editor.say(`${left} ${left === 1 ? "piece" : "pieces"} left in the tray.`);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkSetup, 150);
}

async function checkSetup() {
  const msg = setupMsg();
  if (!msg || !editor.active) return;
  const placement = editor.placement();
  const key = JSON.stringify(placement);
  if (key === checked) return;
  checked = key;
  const gen = ++checkGen;
  const left = editor.leftCount();
  if (!editor.placed()) {
    $("setup-string").value = "";
    editor.say(`${left} pieces in the tray.`);
    return;
  }
  try {
    const res = await api("/api/setup-preview", {
      method: "POST",
      body: { game: msg.game.game, variant: msg.game.variant, seat: shown, setup: placement },
    });
    if (gen !== checkGen) return;
    $("setup-string").value = res.string || "";
    editor.say(left ? `Legal so far; ${left} pieces left in the tray.` : "Ready: confirm to play.", "good");
  } catch (err) {
    if (gen !== checkGen) return;
    editor.say(left ? `${left} pieces left in the tray.` : err.message, left ? "" : "bad");
  }
}

$("setup-random").addEventListener("click", () => previewSetup("random"));
$("setup-sample-button").addEventListener("click", () => previewSetup(`sample:${$("setup-sample").value}`));
$("setup-clear").addEventListener("click", () => {
  editor.clear();
  $("setup-string").value = "";
});
$("setup-preview").addEventListener("click", () => {
  const text = $("setup-string").value.trim();
  if (text) previewSetup(text);
  else toast("Type a setup string first, or pick Random or Sample.");
});
$("setup-string").addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    e.preventDefault();
    $("setup-preview").click();
  }
});
$("setup-save").addEventListener("click", () => {
  const msg = setupMsg();
  const name = $("setup-save-name").value.trim() || `setup ${new Date().toLocaleString()}`;
  if (!msg || !editor.placed()) return;
  saveSetup(msg.game.game, msg.game.variant, name, shown, editor.placement());
  $("setup-save-name").value = "";
  render();
  $("setup-saved").value = name;
  toast(`Saved "${name}" in this browser.`, true);
});
$("setup-load").addEventListener("click", () => {
  const msg = setupMsg();
  const name = $("setup-saved").value;
  const placement = msg && name ? loadSetup(msg.game.game, msg.game.variant, name, shown) : null;
  if (placement) editor.load(placement);
});
$("setup-delete").addEventListener("click", () => {
  const msg = setupMsg();
  const name = $("setup-saved").value;
  if (!msg || !name || !confirm(`Delete the saved setup "${name}"?`)) return;
  deleteSetup(msg.game.game, msg.game.variant, name);
  render();
});
$("setup-confirm").addEventListener("click", () => {
  if (shown === null || !editor.placed()) return;
  // Sent as it stands: the server checks it and answers with an error if it is not a legal setup.
  clearTimeout(checkTimer);
  checkGen++;
  if (conns.get(shown).send({ type: "setup", setup: editor.placement() })) {
    $("setup-confirm").disabled = true;
    editor.say("Sent…");
  }
});

// --- other controls -------------------------------------------------------------------------------
$("resign-button").addEventListener("click", () => {
  if (shown === null) return;
  if (confirm(`Resign this game as ${SEAT_NAMES[shown]}?`)) conns.get(shown).send({ type: "resign" });
});
$("notation-button").addEventListener("click", () => {
  setNotation(notation() === "classic" ? "modern" : "classic");
  render();
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

let toastTimer = null;
function toast(text, ok = false) {
  const t = $("toast");
  t.textContent = text;
  t.className = ok ? "info" : "";
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4500);
}

start();
