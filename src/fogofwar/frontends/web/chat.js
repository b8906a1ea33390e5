// @ts-check
// The chat card of every game page (page.html's #chat, driven by live.js): the rooms this screen reads, each
// message as text nodes (never markup), the length left, a refusal said in words, and mutes kept in this browser.
//
// Rooms (the server's rule, chat.py's rooms_for; a screen writes in the rooms it reads): "players", the two seats
// of an invite game; "spectators", everybody watching, and the players once the game is over (nobody watching
// can help a player during the game). A game against the computer or at one screen has no players' room.
import { $, $button, $input, el } from "./common.js";
import { N_, t } from "./i18n.js";

export const MAX_CHARS = 300; // chat.py's MAX_CHARS
export const HISTORY = 100; // chat.py's HISTORY: the newest messages a room keeps
const ROOM_TITLES = { players: N_("Players"), spectators: N_("Spectators") };
const OPEN = "fogofwar.chat.open";
const MUTED = "fogofwar.chat.muted";

/** The rooms a screen reads (and writes), as the server decides them (chat.py's rooms_for).
 * @param {string} mode the game's mode: "invite", "hotseat" or "agent"
 * @param {number | null} seat the seat on screen, null for a spectator
 * @param {boolean} over whether the game is over
 * @returns {string[]} */
export function roomsFor(mode, seat, over) {
  if (seat === null || seat === undefined) return ["spectators"];
  const rooms = mode === "invite" ? ["players"] : [];
  return over ? [...rooms, "spectators"] : rooms;
}

/** A room's messages with `lines` added: each once (a history sent again on reconnect), oldest first, the newest
 * HISTORY kept.
 * @template {{id: number}} L
 * @param {L[]} known
 * @param {L[]} lines
 * @returns {L[]} */
export function mergeLines(known, lines) {
  const byId = new Map(known.map((l) => [l.id, l]));
  for (const l of lines) byId.set(l.id, l);
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-HISTORY);
}

/** A message's length as the server counts it: in characters (code points), an emoji being one.
 * @param {string} text */
export function chatLength(text) {
  return [...text.trim()].length;
}

/** A refusal of the server in the reader's words (its numbers kept), else its own message.
 * @param {{error?: string, message?: string}} err */
export function chatRefusal(err) {
  if (err.error === "too_long") return t("A message holds at most {n} characters.", { n: MAX_CHARS });
  if (err.error === "empty") return t("Write something first.");
  if (err.error === "slow_down") {
    const m = /at most (\d+) chat messages in ([\d.]+) seconds; wait (\d+) s/.exec(err.message || "");
    if (m) return t("Slow down: at most {n} messages in {s} seconds. Wait {wait} s.", { n: m[1], s: m[2], wait: m[3] });
  }
  return err.message || "";
}

function mutes() {
  try {
    return JSON.parse(localStorage.getItem(MUTED) || "{}") || {};
  } catch {
    return {};
  }
}

/** The chat of one game page.
 * @param {{gameId: string, seatClass: (s: number) => string, playerName: (name: string) => string,
 *   send: (cmd: object) => string | null}} opts send() sends a chat command on the connection on screen and
 *   returns its id, or null when it is not connected */
export function startChat(opts) {
  /** @type {Map<string, {id: number, seat: number | null, name: string | null, text: string, at: number}[]>} */
  const rooms = new Map([["players", []], ["spectators", []]]);
  const unread = new Map([["players", 0], ["spectators", 0]]);
  let readable = /** @type {string[]} */ ([]);
  let active = "players";
  let mine = /** @type {number | null} */ (null); // the seat on screen (null: a spectator)
  let hotseat = false;
  let drawn = ""; // what the list shows, to draw it again only when that changes
  let pending = /** @type {{id: string, text: string} | null} */ (null);
  let errorTimer = 0;

  const card = /** @type {HTMLDetailsElement} */ ($("chat"));
  const input = $input("chat-input");
  const opponentKey = `opponent:${opts.gameId}`;
  const muted = (key) => Boolean(mutes()[key]);
  function setMuted(key, on) {
    const all = mutes();
    if (on) all[key] = true;
    else delete all[key];
    const keys = Object.keys(all); // the opponents of the latest 200 games are remembered
    for (const k of keys.filter((k) => k.startsWith("opponent:")).slice(0, -200)) delete all[k];
    localStorage.setItem(MUTED, JSON.stringify(all));
    draw(true);
  }

  const stored = localStorage.getItem(OPEN);
  // Open at first where there is room for it beside the board (a wide screen, tall enough); folded elsewhere,
  // its summary counting the new messages; then as the player left it.
  card.open = stored !== null ? stored === "1" : matchMedia("(min-aspect-ratio: 1/1) and (min-width: 761px) and (min-height: 900px)").matches;
  card.addEventListener("toggle", () => {
    localStorage.setItem(OPEN, card.open ? "1" : "0");
    if (card.open) unread.set(active, 0);
    draw(true);
  });

  /** Whether a line is hidden by a mute: the spectators' room, or the other seat (in a game of two players). */
  function hidden(room, line) {
    if (room === "spectators" && mine !== null && muted("spectators")) return true;
    return line.seat !== null && mine !== null && !hotseat && line.seat !== mine && muted(opponentKey);
  }

  function note() {
    if (mine === null) return t("The players read this room only once the game is over.");
    if (active === "players") return t("Only your opponent reads this room.");
    return t("The spectators' room: open to the players now that the game is over.");
  }

  function lineNode(line) {
    const who = line.seat === null ? t("Spectator") : `${opts.playerName(line.name || "")}${line.seat === mine && !hotseat ? t(" (you)") : ""}`;
    const at = new Date(line.at * 1000);
    return el("li", { class: `chat-line${line.seat !== null && line.seat === mine ? " mine" : ""}`, title: at.toLocaleString() },
      el("span", { class: line.seat === null ? "dot spectator" : `dot ${opts.seatClass(line.seat)}` }),
      el("span", { class: "chat-name" }, `${who}:`), " ", el("span", { class: "chat-text" }, line.text));
  }

  function draw(force = false) {
    const show = readable.length > 0 && (mine === null || readable.includes("players") || (rooms.get("spectators") || []).length > 0);
    card.hidden = !show;
    if (!show) return;
    if (!readable.includes(active)) active = readable[0];
    if (card.open) unread.set(active, 0);
    const lines = rooms.get(active) || [];
    const shown = lines.filter((l) => !hidden(active, l));
    const key = JSON.stringify([active, readable, mine, hotseat, lines.length && lines[lines.length - 1].id, shown.length, [...unread], card.open]);
    if (key === drawn && !force) return;
    drawn = key;
    const total = [...unread.values()].reduce((a, b) => a + b, 0);
    $("chat-unread").textContent = total ? t("{n} new", { n: total }) : "";
    $("chat-tabs").replaceChildren(...(readable.length > 1 ? readable.map((room) => el("button", {
      type: "button", role: "tab", class: `chat-tab${room === active ? " active" : ""}`, "aria-selected": room === active ? "true" : "false",
      "data-room": room, onclick: () => { active = room; unread.set(room, 0); draw(true); },
    }, t(ROOM_TITLES[room]), unread.get(room) ? ` (${unread.get(room)})` : "")) : [el("span", { class: "chat-room" }, t(ROOM_TITLES[active]))]));
    $("chat-note").textContent = note();
    const list = $("chat-list");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    const items = shown.map(lineNode);
    if (lines.length === 0) {
      const later = mine !== null && active === "players" && !readable.includes("spectators");
      items.push(el("li", { class: "muted chat-empty" }, t("No messages yet."), later ? ` ${t("Spectators have their own room: you can read it when the game is over.")}` : ""));
    }
    if (shown.length < lines.length) items.push(el("li", { class: "muted chat-empty" }, t("Hidden (muted): {n}", { n: lines.length - shown.length })));
    list.replaceChildren(...items);
    if (atBottom || force) list.scrollTop = list.scrollHeight;
    const playersMute = mine !== null && !hotseat && active === "players"; // each room's mute beside it
    const spectatorsMute = mine !== null && active === "spectators";
    $button("chat-mute-opponent").hidden = !playersMute;
    $button("chat-mute-opponent").textContent = muted(opponentKey) ? t("Unmute opponent") : t("Mute opponent");
    $button("chat-mute-spectators").hidden = !spectatorsMute;
    $button("chat-mute-spectators").textContent = muted("spectators") ? t("Unmute spectators") : t("Mute spectators");
    count();
  }

  function count() {
    const n = chatLength(input.value);
    $("chat-count").textContent = `${n}/${MAX_CHARS}`;
    $("chat-count").classList.toggle("over", n > MAX_CHARS);
  }

  function showError(text) {
    const box = $("chat-error");
    box.textContent = text;
    box.hidden = !text;
    clearTimeout(errorTimer);
    if (text) errorTimer = Number(setTimeout(() => { box.hidden = true; }, 8000));
  }

  input.addEventListener("input", count);
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (chatLength(text) > MAX_CHARS) {
      showError(chatRefusal({ error: "too_long" }));
      return;
    }
    const id = opts.send({ type: "chat", room: active, text });
    if (id === null) return;
    pending = { id, text };
    input.value = "";
    count();
    showError("");
  });
  $button("chat-mute-opponent").addEventListener("click", () => setMuted(opponentKey, !muted(opponentKey)));
  $button("chat-mute-spectators").addEventListener("click", () => setMuted("spectators", !muted("spectators")));

  return {
    /** A {"type": "chat"} message of the server: a room's new messages, or its recent ones ("history"). */
    receive(msg) {
      const room = msg.room;
      if (!rooms.has(room)) return;
      const known = rooms.get(room) || [];
      const seen = new Set(known.map((l) => l.id));
      rooms.set(room, mergeLines(known, msg.messages || []));
      if (!msg.history) {
        const fresh = (msg.messages || []).filter((l) => !seen.has(l.id) && !hidden(room, l) && (l.seat === null || l.seat !== mine || hotseat));
        if (fresh.length && (!card.open || room !== active)) unread.set(room, (unread.get(room) || 0) + fresh.length);
      }
      draw();
    },
    /** The server's answer (ack or error) to a chat message this page sent. */
    answer(msg) {
      if (msg.type === "error") {
        showError(chatRefusal(msg));
        if (pending && pending.id === msg.id && !input.value) {
          input.value = pending.text; // nothing was said: the text comes back to be sent again
          count();
        }
      }
      if (pending && pending.id === msg.id) pending = null;
    },
    /** Draw the chat for the state on screen (its game, the seat shown); hidden behind the hot-seat curtain. */
    render(state, { isHotseat, curtainUp }) {
      hotseat = isHotseat;
      mine = state.seat ?? null;
      readable = curtainUp ? [] : roomsFor(state.game.mode, mine, state.game.status === "over");
      draw();
    },
  };
}
