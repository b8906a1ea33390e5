// @ts-check
// The page's language: English by default, Italian (the language of the LOTR and Admiral rulebooks) when the
// browser asks for it or the player picks it. Catalogs are JSON files in i18n/ whose keys are the English texts
// (gettext's way: a text without an entry stays English), with {name} placeholders; the Italian one uses the
// terms of the Italian rulebooks. Pages wait for the catalog (a top-level await) before they draw.

export const LANGUAGES = { en: "English", it: "Italiano" };
const STORE = "fogofwar.lang";

/** @type {Record<string, string>} */
let catalog = {};
let current = "en";

/** The language to use: the player's choice, else the first the browser prefers that we have, else English.
 * @param {string | null} stored
 * @param {readonly string[]} preferred */
export function chooseLanguage(stored = null, preferred = []) {
  if (stored && stored in LANGUAGES) return stored;
  for (const tag of preferred) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

/** Use `table` ({English: translation}) for `language` (tests call this; pages use `loadLanguage`). */
export function useCatalog(language, table) {
  current = language;
  catalog = table;
}

/** Marks a text for the catalog where it is defined (in a table) and translated later by `t(value)`: gettext's
 * N_ (the catalog test finds the texts of t("...") and N_("...")).
 * @param {string} text */
export const N_ = (text) => text;

export function language() {
  return current;
}

/** The text in the page's language, its {placeholders} filled from `params`.
 * @param {string} text the English text
 * @param {Record<string, unknown>} [params] */
export function t(text, params = {}) {
  const out = catalog[text] ?? text;
  return out.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Translate the page's static words: every text node and placeholder/title/aria-label whose whole (trimmed)
 * text has an entry, under `root`. */
export function translatePage(root = document.body) {
  if (current === "en") return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue || "";
    const key = text.trim().replace(/\s+/g, " ");
    if (key && key in catalog) node.nodeValue = text.replace(text.trim(), catalog[key]);
  }
  for (const attr of ["placeholder", "title", "aria-label"]) {
    for (const elem of root.querySelectorAll(`[${attr}]`)) {
      const key = elem.getAttribute(attr) || "";
      if (key in catalog) elem.setAttribute(attr, catalog[key]);
    }
  }
  if (document.title in catalog) document.title = catalog[document.title];
}

/** Load the catalog of the chosen language (no fetch for English), set <html lang>, translate the static page
 * and offer the choice in the header's #lang select, if the page has one. */
export async function loadLanguage() {
  const stored = localStorage.getItem(STORE);
  const chosen = chooseLanguage(stored, navigator.languages || [navigator.language]);
  let table = {};
  if (chosen !== "en") {
    try {
      const res = await fetch(`/static/i18n/${chosen}.json`);
      if (res.ok) table = await res.json();
    } catch {
      // the catalog did not come: the page stays English
    }
  }
  useCatalog(chosen, table);
  document.documentElement.lang = chosen;
  translatePage();
  // Texts written in each language (the help page's guides): the reader's, or the English one.
  const written = new Set([...document.querySelectorAll("[data-lang]")].map((e) => /** @type {HTMLElement} */ (e).dataset.lang));
  const shown = written.has(chosen) ? chosen : "en";
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-lang]"))) e.hidden = e.dataset.lang !== shown;
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
  if (select) {
    select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      return option;
    }));
    select.value = chosen;
    select.addEventListener("change", () => {
      localStorage.setItem(STORE, select.value);
      location.reload();
    });
  }
}

if (typeof document !== "undefined") await loadLanguage();
