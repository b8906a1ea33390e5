// The lobby: create a game (computer, hot-seat or invite), resume your games, watch others.
import { allStoredGames, api, capitalize, el, saveGame, SEAT_NAMES, timeAgo } from "./common.js";

const $ = (id) => document.getElementById(id);

function statusBadge(g) {
  if (g.status === "over") {
    const o = g.outcome || {};
    const text = o.winner === null || o.winner === undefined ? "draw" : `${SEAT_NAMES[o.winner]} won`;
    return el("span", { class: "badge" }, text);
  }
  if (g.open_seats && g.open_seats.length) return el("span", { class: "badge setup" }, "waiting for a player");
  if (g.status === "setup") return el("span", { class: "badge setup" }, "setup");
  return el("span", { class: "badge play" }, `${SEAT_NAMES[g.to_move]} to move`);
}

function gameLabel(g) {
  return `${capitalize(g.variant || g.game)}`;
}

function players(g) {
  return el("span", {},
    el("span", { class: "dot red" }), g.players[0] || "open seat", " vs ",
    el("span", { class: "dot blue" }), g.players[1] || "open seat");
}

async function loadMeta() {
  const meta = await api("/api/meta");
  const stratego = meta.games.find((g) => g.name === "stratego");
  const variant = $("variant");
  for (const v of stratego.variants) {
    const option = el("option", { value: v.name }, `Stratego ${v.name} — ${v.army_size} pieces`);
    option.title = v.title;
    variant.append(option);
  }
  variant.value = "classic";
  const agent = $("agent");
  for (const a of meta.agents) agent.append(el("option", { value: a }, a));
  agent.value = meta.agents.includes("heuristic") ? "heuristic" : meta.agents[0];
}

async function create(event) {
  event.preventDefault();
  const form = new FormData($("create"));
  const opponent = form.get("opponent") === "agent" ? form.get("agent") : form.get("opponent");
  const options = { two_squares: Number(form.get("two_squares") || 5), more_squares: form.get("more_squares") === "on" };
  const cap = form.get("max_moves");
  if (cap !== null && cap !== "") options.max_moves = Number(cap);
  $("create-button").disabled = true;
  $("create-error").textContent = "";
  try {
    const res = await api("/api/games", {
      method: "POST",
      body: { game: "stratego", variant: form.get("variant"), options, opponent, color: form.get("color"), name: form.get("name") || "" },
    });
    saveGame(res.game.id, { seats: res.seats, invite: res.invite, created: Date.now() });
    location.href = res.url;
  } catch (err) {
    $("create-error").textContent = err.message;
    $("create-button").disabled = false;
  }
}

async function loadLists() {
  const { games } = await api("/api/games?limit=50");
  const mine = allStoredGames();
  const byId = new Map(games.map((g) => [g.id, g]));
  // Your games: those this browser holds a seat token for.
  const mineBody = $("mine").querySelector("tbody");
  mineBody.replaceChildren();
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
    const you = seats.length === 2 ? "both (hot-seat)" : SEAT_NAMES[seats[0]];
    const opp = seats.length === 2 ? "—" : g.players[1 - seats[0]] || "open seat";
    mineBody.append(el("tr", {},
      el("td", {}, gameLabel(g)),
      el("td", {}, you ? el("span", {}, seats.length === 1 ? el("span", { class: `dot ${you}` }) : null, you) : "—"),
      el("td", {}, opp),
      el("td", {}, statusBadge(g)),
      el("td", {}, el("a", { class: "button", href: `/game/${encodeURIComponent(id)}` }, g.status === "over" ? "View" : "Resume"))));
  }
  $("mine").hidden = mineBody.children.length === 0;
  $("mine-empty").hidden = mineBody.children.length !== 0;
  // Recent games: anybody may watch (the public view shows no hidden rank).
  const body = $("recent").querySelector("tbody");
  body.replaceChildren();
  for (const g of games) {
    body.append(el("tr", {},
      el("td", {}, gameLabel(g)),
      el("td", {}, players(g)),
      el("td", {}, statusBadge(g)),
      el("td", {}, String(g.move_count)),
      el("td", { class: "muted" }, timeAgo(g.updated_at)),
      el("td", {}, el("a", { href: `/game/${encodeURIComponent(g.id)}` }, mine[g.id] ? "open" : "watch"))));
  }
  if (!games.length) body.append(el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No games yet: create one.")));
}

$("create").addEventListener("submit", create);
loadMeta().catch((err) => { $("create-error").textContent = `cannot reach the server: ${err.message}`; });
loadLists().catch(() => {});
setInterval(() => loadLists().catch(() => {}), 15000);
