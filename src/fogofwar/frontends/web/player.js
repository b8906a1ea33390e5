// @ts-check
// A player's profile: ratings per game mode and their games, with replays.
import { ratingText, showAccountNav } from "./account.js";
import { $, api, describeOutcome, el, timeAgo } from "./common.js";
import { t } from "./i18n.js";

async function show() {
  const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    $("player-name").textContent = err.message;
    return;
  }
  $("player-title").textContent = data.name;
  $("player-name").textContent = data.name;
  $("player-since").textContent = t("Playing since {when}", { when: new Date(data.since * 1000).toLocaleDateString() });
  const ratings = Object.entries(data.ratings);
  $("ratings").querySelector("tbody")?.replaceChildren(...ratings.map(([mode, r]) => el("tr", {},
    el("td", {}, el("a", { href: `/leaderboard?mode=${encodeURIComponent(mode)}` }, mode)),
    el("td", {}, ratingText(r)),
    el("td", {}, String(r.games)))));
  $("ratings").hidden = ratings.length === 0;
  $("ratings-empty").hidden = ratings.length !== 0;
  $("player-games").querySelector("tbody")?.replaceChildren(...data.games.map((g) => el("tr", {},
    el("td", {}, `${g.game} ${g.variant || ""}${g.clock ? ` · ${g.clock}` : ""}`),
    el("td", {}, (g.players || []).map((p) => p || t("open seat")).join(` ${t("vs")} `)),
    el("td", {}, g.status === "over" ? describeOutcome(g.outcome, g.your_seat) : t("in play")),
    el("td", { class: "links" },
      el("a", { href: `/game/${encodeURIComponent(g.id)}` }, t(g.status === "over" ? "View" : "watch")),
      g.status === "over" ? el("a", { href: `/replay/${encodeURIComponent(g.id)}` }, t("Replay")) : "",
      el("span", { class: "muted small" }, timeAgo(g.updated_at))))));
  $("player-games").hidden = data.games.length === 0;
  $("player-games-empty").hidden = data.games.length !== 0;
}

showAccountNav();
show();
