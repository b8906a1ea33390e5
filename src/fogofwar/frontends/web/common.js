// @ts-check
// Shared by the lobby and the game page: the REST helper, seat tokens kept in this browser,
// rank names and symbols, square names. No build step: plain ES modules.
import { t } from "./i18n.js";

export const SEAT_NAMES = ["red", "blue"];
export const FILES = "ABCDEFGHIK"; // no J, as in ISF notation

// Strongest first: the order of captured pieces and roster lists.
export const RANK_ORDER = [
  "marshal", "general", "colonel", "major", "captain", "lieutenant",
  "sergeant", "miner", "scout", "spy", "bomb", "flag",
];

const SYMBOLS = {
  classic: { marshal: "1", general: "2", colonel: "3", major: "4", captain: "5", lieutenant: "6",
    sergeant: "7", miner: "8", scout: "9", spy: "S", bomb: "B", flag: "F" },
  modern: { marshal: "10", general: "9", colonel: "8", major: "7", captain: "6", lieutenant: "5",
    sergeant: "4", miner: "3", scout: "2", spy: "S", bomb: "B", flag: "F" },
};

export function notation() {
  return localStorage.getItem("fogofwar.notation") === "modern" ? "modern" : "classic";
}

export function setNotation(value) {
  localStorage.setItem("fogofwar.notation", value);
}

export function rankSymbol(rank) {
  return SYMBOLS[notation()][rank] ?? "?";
}

export function rankLabel(rank) {
  return `${t(rank)} (${rankSymbol(rank)})`;
}

export function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * A player's stored name in the reader's language. The server stores names in English: the computer's as its
 * level's title ("Master (computer)") and an unnamed person's as the seat ("Red"); those read translated, a
 * person's own name as written.
 * @param {string | null | undefined} name
 * @param {string[]} seatNames the game's seats, e.g. ["red", "blue"]
 */
export function playerName(name, seatNames = SEAT_NAMES) {
  if (!name) return t("open seat");
  const computer = /^(.*) \(computer\)$/.exec(name);
  if (computer) return `${t(computer[1])} (${t("computer")})`;
  return seatNames.some((s) => capitalize(s) === name) ? capitalize(t(name.toLowerCase())) : name;
}

export function squareName(sq) {
  return `${FILES[sq % 10]}${Math.floor(sq / 10) + 1}`;
}

export function parseSquare(name) {
  return (parseInt(name.slice(1), 10) - 1) * 10 + FILES.indexOf(name[0].toUpperCase());
}

// --- seat tokens: kept in localStorage, never in a cookie, sent only to this server ---------
const KEY = "fogofwar.games";

export function allStoredGames() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function storedGame(id) {
  const entry = allStoredGames()[id] || {};
  return { seats: entry.seats || {}, invite: entry.invite || null, created: entry.created || Date.now() };
}

export function saveGame(id, entry) {
  const all = allStoredGames();
  all[id] = entry;
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function forgetGame(id) {
  const all = allStoredGames();
  delete all[id];
  localStorage.setItem(KEY, JSON.stringify(all));
}

// --- REST ----------------------------------------------------------------------------------
/** A call of the server's JSON API; an error carries the HTTP status (`status`).
 * @param {string} path
 * @param {{method?: string, body?: any, token?: string | null, csrf?: string}} [options] */
export async function api(path, { method = "GET", body = undefined, token = undefined, csrf = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (csrf) headers["X-CSRF-Token"] = csrf; // a request on the signed-in player's behalf (account.js)
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = data && (data.message || (Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail));
    throw Object.assign(new Error(detail || `${res.status} ${res.statusText}`), { status: res.status });
  }
  return data;
}

// --- the page's elements, by id (the pages always hold them), typed for the checker ----------
/** @param {string} id @returns {HTMLElement} */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLInputElement} */
export const $input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLSelectElement} */
export const $select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLButtonElement} */
export const $button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLTextAreaElement} */
export const $textarea = (id) => /** @type {HTMLTextAreaElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLAnchorElement} */
export const $link = (id) => /** @type {HTMLAnchorElement} */ (document.getElementById(id));
/** @param {string} id @returns {HTMLFormElement} */
export const $form = (id) => /** @type {HTMLFormElement} */ (document.getElementById(id));

/** The board square (its `data-sq`) an event happened on, or null when it was beside the squares.
 * @param {Event} event @returns {number | null} */
export function squareOf(event) {
  const hit = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("[data-sq]"));
  return hit ? Number(hit.dataset.sq) : null;
}

// --- small DOM helper ------------------------------------------------------------------------
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function timeAgo(seconds) {
  const d = Math.max(0, Date.now() / 1000 - seconds);
  if (d < 60) return t("just now");
  if (d < 3600) return t("{n} min ago", { n: Math.floor(d / 60) });
  if (d < 86400) return t("{n} h ago", { n: Math.floor(d / 3600) });
  return new Date(seconds * 1000).toLocaleDateString();
}

/** A result in words: 'Red wins — you win! (flag captured)'. perspective: the seat reading it (null: nobody's);
 * name(seat): how a seat is called, Stratego's Red and Blue unless given. */
export function describeOutcome(outcome, perspective, name = (s) => capitalize(t(SEAT_NAMES[s]))) {
  if (!outcome) return "";
  if (outcome.termination === "aborted") return t("Game aborted: no result");
  if (outcome.winner === null || outcome.winner === undefined) return t("Draw: {reason}", { reason: outcome.reason });
  const who = name(outcome.winner);
  const mine = perspective === outcome.winner ? t(" — you win!") : perspective === 1 - outcome.winner ? t(" — you lose") : "";
  // An ending the server words (a resignation, a flag taken) keeps its words; a loss on time is said here.
  const reason = outcome.termination === "timeout" ? t("{seat} ran out of time", { seat: name(1 - outcome.winner) }) : outcome.reason;
  return t("{who} wins{mine} ({reason})", { who, mine, reason });
}


const RULE_ID = "(?:STR|LOTR|ADM|SOLO)-[A-Z0-9]+(?:-[A-Z0-9]+)*";
const RULE_IDS_IN_BRACKETS = new RegExp(`\\s*\\((?:\\s*(?:${RULE_ID}|see|and|,|;|/))+\\s*\\)`, "g");
const RULE_IDS = new RegExp(`\\b${RULE_ID}\\b`, "g");
const LEADING_RULE_IDS = new RegExp(`^${RULE_ID}(?:\\s*,\\s*${RULE_ID})*:\\s*`);

/** A server text for people: the rule ids the engines cite ("C5 is a lake (STR-BOARD-1)") taken out of
 * the words, and kept apart for whoever asks (a tooltip). */
export function plainWords(text) {
  const ids = [...new Set(String(text).match(RULE_IDS) || [])];
  const words = String(text).replace(LEADING_RULE_IDS, "").replace(RULE_IDS_IN_BRACKETS, "").replace(/\s+([.,;:])/g, "$1").trim();
  return { text: words, ids };
}

/** A span (or the given tag) with the plain words of a server text, its rule ids in the tooltip. */
export function plainEl(text, tag = "span", attrs = {}) {
  const { text: words, ids } = plainWords(text);
  return el(tag, ids.length ? { ...attrs, title: `Rules: ${ids.join(", ")}` } : attrs, words);
}
