// @ts-check
// The signed-in player, for every page that shows it: the header's account link, and requests made on the
// player's behalf, which carry the session's CSRF token (the cookie alone proves nothing: another site's
// page can make the browser send it). Accounts are optional: without one, everything else works.
import { $, api, allStoredGames, el } from "./common.js";
import { t } from "./i18n.js";

/** A rating as game sites write it: "1620", or "1620?" while provisional. */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

/** @type {Promise<{name: string | null, csrf: string | null}> | null} */
let current = null;

/** The signed-in player ({name: null} if nobody), asked of the server once per page. */
export function account() {
  if (!current) current = api("/api/account").catch(() => ({ name: null, csrf: null }));
  return current;
}

/** `api()` on the player's behalf: with the CSRF token when signed in (else as anybody). */
export async function asPlayer(path, options = {}) {
  const { csrf } = await account();
  return api(path, { ...options, csrf: csrf || undefined });
}

/** The header's link: the player's name (their profile) and "Sign out", or "Sign in". */
export async function showAccountNav() {
  const nav = document.getElementById("account-nav");
  if (!nav) return;
  const { name } = await account();
  if (!name) {
    nav.replaceChildren(el("a", { class: "nav-link", href: "/account" }, t("Sign in")));
    return;
  }
  const out = el("button", { type: "button", class: "link-button" }, t("Sign out"));
  out.addEventListener("click", async () => {
    await asPlayer("/api/account/signout", { method: "POST" }).catch(() => {});
    location.reload();
  });
  nav.replaceChildren(el("a", { class: "nav-link", href: `/player/${encodeURIComponent(name)}` }, name), out);
}

/** This browser's games (their seat tokens) become the signed-in player's: how anonymous games are claimed. */
export async function claimStoredGames() {
  const games = Object.entries(allStoredGames()).flatMap(([id, entry]) =>
    Object.values(entry.seats || {}).map((token) => ({ id, token: String(token) })));
  if (!games.length) return [];
  const res = await asPlayer("/api/account/claim", { method: "POST", body: { games: games.slice(0, 100) } });
  return res.claimed;
}

/** The account form of /account: sign in or sign up, then claim this browser's games. */
export function startAccountPage() {
  const form = /** @type {HTMLFormElement} */ ($("account-form"));
  let mode = "signin";
  const say = (text) => { $("account-error").textContent = text; };
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (form.querySelectorAll("button[data-mode]"))) {
    button.addEventListener("click", () => { mode = button.dataset.mode || "signin"; });
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    say("");
    try {
      const res = await api(`/api/account/${mode}`, { method: "POST", body: { name: data.get("name"), password: data.get("password") } });
      current = Promise.resolve(res);
      const claimed = await claimStoredGames().catch(() => []);
      say(claimed.length ? t("Signed in. {n} games of this browser are now yours.", { n: claimed.length }) : t("Signed in."));
      location.href = `/player/${encodeURIComponent(res.name)}`;
    } catch (err) {
      say(err.message);
    }
  });
  account().then(({ name }) => {
    $("signed-in").hidden = !name;
    form.hidden = Boolean(name);
    if (name) {
      $("signed-in-name").textContent = name;
      $("signed-in-name").setAttribute("href", `/player/${encodeURIComponent(name)}`);
    }
  });
}
