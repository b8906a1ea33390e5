// @ts-check
// The lobby: create a game (Stratego, Stratego LOTR or Admiral; computer, hot-seat or invite),
// resume your games, watch others.
import { N_, t } from "./i18n.js";
import { account, asPlayer, showAccountNav } from "./account.js";
import { clockKind, clockLabel } from "./clock.js";
import { $, allStoredGames, api, $button, capitalize, el, $form, $input, playerName, saveGame, SEAT_NAMES, $select, timeAgo } from "./common.js";

let games = {}; // game name -> its description from /api/meta
let levels = {}; // agent name -> its level from /api/meta: label, blurb, measured Elo and seconds a move

// The first seat moves (or deploys) first in every game.
const SIDES = {
  stratego: [["red", N_("Red (moves first)")], ["blue", N_("Blue")]],
  lotr: [["evil", N_("Evil, grey (moves first)")], ["good", N_("Good, beige")]],
  admiral: [["south", N_("South (deploys first)")], ["north", N_("North")]],
};
const DEFAULT_AGENT = { stratego: "heuristic", lotr: "heuristic", admiral: "stratego" };
// The computer players by strength, as the lobby names them (the value sent stays the agent's name),
// with a line on how each plays; the levels that are no agent of their own (novice, expert) are named by
// their entry in /api/meta's levels only.
const AGENT_LABELS = {
  random: [N_("Beginner (random)"), N_("plays random legal moves")],
  heuristic: [N_("Club (heuristic)"), N_("rules of thumb, with a memory of what it has seen")],
  search: [N_("Strong (search)"), N_("looks ahead over many guesses of your hidden army")],
  stratego: [N_("Admiral Stratego"), N_("the solo mode's computer admiral, under the solo rules")],
};

/** [label, line on how it plays] of a computer player. The levels' ratings are measured on classic
 * Stratego, so they show there only (LOTR's `search` is another player with the same name). */
function agentLabel(a, game) {
  const level = levels[a];
  if (!level) return (AGENT_LABELS[a] || [a, ""]).map((w) => t(w));
  const rated = game === "stratego" && level.elo !== null && level.elo !== undefined;
  const known = level.seconds !== null && level.seconds !== undefined;
  const secs = !known ? "" : level.seconds < 0.1 ? t("; under 0.1 s a move") : t("; about {s} s a move", { s: level.seconds.toFixed(1) });
  return [rated ? `${t(level.label)} · Elo ${level.elo}` : t(AGENT_LABELS[a]?.[0] || level.label),
    rated ? `${t(level.blurb)}${secs}` : t(AGENT_LABELS[a]?.[1] || level.blurb)];
}

function seatName(g, seat) {
  const names = games[g.game]?.seats || SEAT_NAMES;
  return t(names[seat] ?? "");
}

function statusBadge(g) {
  if (g.status === "over") {
    const o = g.outcome || {};
    const text = o.winner === null || o.winner === undefined ? t("draw") : t("{seat} won", { seat: seatName(g, o.winner) });
    return el("span", { class: "badge" }, text);
  }
  if (g.open_seats && g.open_seats.length) return el("span", { class: "badge setup" }, t("waiting for a player"));
  if (g.status === "setup") return el("span", { class: "badge setup" }, t("setup"));
  if (g.to_move === null || g.to_move === undefined) return el("span", { class: "badge play" }, t("in play"));
  return el("span", { class: "badge play" }, t("{seat} to move", { seat: seatName(g, g.to_move) }));
}

function gameLabel(g) {
  const title = t(games[g.game]?.title || capitalize(g.game));
  const variant = games[g.game]?.variants?.find((v) => v.name === g.variant);
  const clock = g.clock ? ` · ${clockLabel(g.clock)}` : "";
  if (g.game === "stratego") return capitalize(t(g.variant || g.game)) + clock;
  return `${title} — ${variant ? t(variant.title) : g.variant || ""}${clock}`;
}

/** The name at `seat` of game `g` in the reader's language (`playerName`). */
function nameIn(g, seat) {
  return playerName(g.players[seat], games[g.game]?.seats || SEAT_NAMES);
}

function players(g) {
  return el("span", {},
    el("span", { class: "dot red" }), nameIn(g, 0), ` ${t("vs")} `,
    el("span", { class: "dot blue" }), nameIn(g, 1));
}

/** A finished game's replay (every game's replay viewer steps through it); nothing for a game still on. */
function replayLink(g, cls) {
  if (g.status !== "over") return null;
  return el("a", { class: cls, href: `/replay/${encodeURIComponent(g.id)}`, title: t("Step through the whole game") }, t("Replay"));
}

async function loadMeta() {
  const meta = await api("/api/meta");
  games = Object.fromEntries(meta.games.map((g) => [g.name, g]));
  for (const level of meta.levels || []) levels[level.name] = level;
  $select("game").replaceChildren(...meta.games.map((g) => el("option", { value: g.name }, t(g.title || capitalize(g.name)))));
  $select("game").value = "stratego";
  $select("game").addEventListener("change", chooseGame);
  $select("challenge-game").append(...meta.games.map((g) => el("option", { value: g.name }, t(g.title || capitalize(g.name)))));
  chooseGame();
}

function chooseGame() {
  const name = $select("game").value;
  const game = games[name];
  const variant = $select("variant");
  variant.replaceChildren(...game.variants.map((v) => {
    const label = name === "stratego" ? t("Stratego {variant} — {n} pieces", { variant: t(v.name), n: v.army_size }) : t(v.title);
    const option = el("option", { value: v.name }, label);
    option.title = t(v.title);
    return option;
  }));
  variant.value = name === "admiral" ? game.default_variant : "classic";
  $("variant-label").textContent = t(name === "admiral" ? "Terrain" : name === "lotr" ? "Rulebook game" : "Variant");
  const agent = $select("agent");
  const keep = agent.value;
  agent.replaceChildren(...game.agents.map((a) => {
    const [label, how] = agentLabel(a, name);
    const option = el("option", { value: a }, label);
    option.title = how;
    return option;
  }));
  agent.value = game.agents.includes(keep) && name === agent.dataset.game ? keep : DEFAULT_AGENT[name] || game.agents[0];
  agent.dataset.game = name;
  $select("color").replaceChildren(...[...SIDES[name], ["random", N_("Random")]].map(([v, words]) => el("option", { value: v }, t(words))));
  for (const block of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-game]"))) {
    block.hidden = block.dataset.game !== name;
  }
}

function gameOptions(form, game) {
  if (game === "lotr") {
    const options = {
      captured_mode: form.get("captured_mode"),
      back_and_forth: Number(form.get("back_and_forth") || 3),
      detect_flag: form.get("detect_flag") || "captured",
    };
    const cap = form.get("lotr_max_moves");
    if (cap !== null && cap !== "") options.max_moves = Number(cap);
    return options;
  }
  if (game === "admiral") {
    const south = form.get("south_faction") || "usn";
    const options = { factions: [south, south === "usn" ? "ijn" : "usn"] };
    for (const reading of ["duel_order", "rate_of_fire", "size_class", "torpedo_reload"]) {
      const value = form.get(reading);
      if (value) options[reading] = value;
    }
    const cap = form.get("max_turns");
    if (cap !== null && cap !== "") options.max_turns = Number(cap);
    return options;
  }
  const options = { two_squares: Number(form.get("two_squares") || 5), more_squares: form.get("more_squares") === "on" };
  const cap = form.get("max_moves");
  if (cap !== null && cap !== "") options.max_moves = Number(cap);
  return options;
}

async function create(event) {
  event.preventDefault();
  const form = new FormData($form("create"));
  const opponent = form.get("opponent") === "agent" ? form.get("agent") : form.get("opponent");
  const game = form.get("game") || "stratego";
  const options = gameOptions(form, game);
  $button("create-button").disabled = true;
  $("create-error").textContent = "";
  try {
    const res = await asPlayer("/api/games", { // signed in: the game is the player's (and may be rated)
      method: "POST",
      body: {
        game, variant: form.get("variant"), options, opponent, color: form.get("color"), name: form.get("name") || "",
        clock: form.get("clock") || "",
        rated: form.get("rated") === "on" && opponent !== "hotseat",
      },
    });
    saveGame(res.game.id, { seats: res.seats, invite: res.invite, created: Date.now() });
    location.href = res.url;
  } catch (err) {
    $("create-error").textContent = err.message;
    $button("create-button").disabled = false;
  }
}

/** Puts `rows` in the table body `body` unless they say what its rows already say: a refresh that changes nothing
 * leaves the rows (and the link under the pointer) in place, so a click never lands between an old row and its twin. */
function showRows(body, rows) {
  const key = rows.map((r) => r.outerHTML).join("");
  if (body.dataset.rows === key) return;
  body.dataset.rows = key;
  body.replaceChildren(...rows);
}

let challengesAsked = 0; // the latest request for each list: an older answer arriving late is not shown
let listsAsked = 0;

/** The open challenges, filtered by game and clock; anyone may accept one, except its own challenger. */
async function loadChallenges() {
  const asked = ++challengesAsked;
  const { challenges } = await api("/api/challenges?limit=50");
  if (asked !== challengesAsked) return;
  const mine = allStoredGames();
  const game = $select("challenge-game").value;
  const clock = $select("challenge-clock").value;
  const shown = challenges.filter((g) => (!game || g.game === game) && (!clock || clockKind(g.clock) === clock));
  const body = $("challenges").querySelector("tbody");
  showRows(body, shown.map((g) => {
    const open = g.open_seats[0];
    const challenger = g.players[1 - open] ? nameIn(g, 1 - open) : seatName(g, 1 - open);
    const action = mine[g.id]
      ? el("span", { class: "muted small" }, t("yours: waiting"))
      : el("button", { class: "primary", type: "button", "data-accept": g.id }, t("Accept"));
    if (!mine[g.id]) action.addEventListener("click", () => accept(g.id, action));
    return el("tr", {},
      el("td", {}, gameLabel(g)),
      el("td", {}, challenger),
      el("td", {}, el("span", { class: `dot ${SEAT_NAMES[open]}` }), seatName(g, open)),
      el("td", { class: "muted" }, timeAgo(g.created_at)),
      el("td", { class: "links" }, action));
  }));
  $("challenges").hidden = shown.length === 0;
  $("challenges-empty").hidden = shown.length !== 0;
}

async function accept(id, button) {
  button.disabled = true;
  try {
    const res = await asPlayer(`/api/games/${encodeURIComponent(id)}/accept`, { method: "POST", body: { name: $input("name").value.trim() } });
    saveGame(id, { seats: res.seats, created: Date.now() });
    location.href = res.url;
  } catch (err) {
    $("create-error").textContent = err.message;
    button.disabled = false;
    loadChallenges().catch(() => {});
  }
}

async function loadLists() {
  const asked = ++listsAsked;
  loadChallenges().catch(() => {});
  const { games } = await api("/api/games?limit=50");
  const mine = allStoredGames();
  const byId = new Map(games.map((g) => [g.id, g]));
  // Your games: those this browser holds a seat token for.
  const mineRows = [];
  const ids = Object.keys(mine).sort((a, b) => (mine[b].created || 0) - (mine[a].created || 0));
  for (const id of ids) {
    let g = byId.get(id);
    if (!g) {
      try {
        g = (await api(`/api/games/${encodeURIComponent(id)}`)).game;
      } catch {
        continue; // gone from this server
      }
    }
    const seats = Object.keys(mine[id].seats || {}).map(Number);
    const you = seats.length === 2 ? t("both (hot-seat)") : seatName(g, seats[0]);
    const opp = seats.length === 2 ? "—" : nameIn(g, 1 - seats[0]);
    mineRows.push(el("tr", {},
      el("td", {}, gameLabel(g)),
      el("td", {}, you ? el("span", {}, seats.length === 1 ? el("span", { class: `dot ${SEAT_NAMES[seats[0]]}` }) : null, you) : "—"),
      el("td", {}, opp),
      el("td", {}, statusBadge(g)),
      el("td", { class: "links" }, el("a", { class: "button", href: `/game/${encodeURIComponent(id)}` }, t(g.status === "over" ? "View" : "Resume")),
        replayLink(g, "button"))));
  }
  if (asked !== listsAsked) return; // a later refresh shows the lists
  showRows($("mine").querySelector("tbody"), mineRows);
  $("mine").hidden = mineRows.length === 0;
  $("mine-empty").hidden = mineRows.length !== 0;
  // Recent games: anybody may watch (the public view shows no hidden rank).
  const rows = [];
  const liveOnly = $input("live-only").checked;
  for (const g of games) {
    if (liveOnly && (g.status !== "play" || g.open_seats.length)) continue;
    rows.push(el("tr", {},
      el("td", {}, gameLabel(g)),
      el("td", {}, players(g)),
      el("td", {}, statusBadge(g)),
      el("td", {}, String(g.move_count)),
      el("td", { class: "muted" }, timeAgo(g.updated_at)),
      el("td", { class: "links" }, el("a", { href: `/game/${encodeURIComponent(g.id)}` }, t(mine[g.id] ? "open" : "watch")),
        replayLink(g, "replay-link"))));
  }
  if (!rows.length) {
    rows.push(el("tr", {}, el("td", { colspan: 6, class: "muted" }, t(liveOnly ? "No game in play right now." : "No games yet: create one."))));
  }
  showRows($("recent").querySelector("tbody"), rows);
}

$form("create").addEventListener("submit", create);
showAccountNav();
account().then(({ name }) => { $("rated-box").hidden = !name; });
loadMeta()
  .catch((err) => { $("create-error").textContent = t("cannot reach the server: {error}", { error: err.message }); })
  .then(() => loadLists().catch(() => {}));
for (const id of ["challenge-game", "challenge-clock"]) $(id).addEventListener("change", () => loadChallenges().catch(() => {}));
$input("live-only").addEventListener("change", () => loadLists().catch(() => {}));
// Challenges come and go: the lists refresh every few seconds while the lobby is in front.
setInterval(() => { if (!document.hidden) loadLists().catch(() => {}); }, 5000);
