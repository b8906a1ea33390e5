// @ts-check
// The leaderboard of one game mode (?mode=stratego/classic), the best ratings first.
import { ratingText, showAccountNav } from "./account.js";
import { $, api, el, $select } from "./common.js";

async function show(mode) {
  const data = await api(`/api/leaderboard?mode=${encodeURIComponent(mode)}`);
  const select = $select("board-mode");
  select.replaceChildren(...data.modes.map((m) => el("option", { value: m }, m)));
  select.value = data.mode;
  $("board").querySelector("tbody")?.replaceChildren(...data.players.map((p, i) => el("tr", {},
    el("td", {}, String(i + 1)),
    el("td", {}, el("a", { href: `/player/${encodeURIComponent(p.name)}` }, p.name)),
    el("td", {}, ratingText(p)),
    el("td", {}, String(p.games)))));
  $("board").hidden = data.players.length === 0;
  $("board-empty").hidden = data.players.length !== 0;
}

$select("board-mode").addEventListener("change", () => {
  const mode = $select("board-mode").value;
  history.replaceState(null, "", `/leaderboard?mode=${encodeURIComponent(mode)}`);
  show(mode);
});
showAccountNav();
show(new URLSearchParams(location.search).get("mode") || "");
