// @ts-check
// The setup string and the sample armies of a setup panel, the same for every game that has them (Stratego and
// LOTR). The server reads every setup: a sample, a pasted string and an arrangement made by hand all go to
// /api/setup-preview, which answers with the placement and its setup string (the string appears once the army
// on the board is complete and legal). The panel holds #setup-sample with #setup-sample-button, #setup-string
// with #setup-preview, and #setup-clear; the page wires its other buttons (Random, Confirm) itself.
import { api, $button, el, $select, $textarea } from "./common.js";
import { t } from "./i18n.js";

/**
 * `editor` is the page's SetupEditor; `page.current()` the state message being set up on screen (or null),
 * `page.say(text)` tells the player of an error. Returns what the page calls: `preview(spec)` loads a setup
 * the server reads ('random', 'sample:NAME', a string), `checkSoon()` checks the arrangement after a change,
 * `cancel()` drops a check under way (the setup is being sent), `render(msg)` fills the samples.
 * @param {import("./setup_editor.js").SetupEditor} editor
 * @param {{ current: () => any, say: (text: string) => void }} page
 */
export function setupStringTools(editor, page) {
  let checked = ""; // the last placement the server has read
  /** @type {[string, string, string] | null} */
  let verdict = null; // what was said of it: [setup string, status text, status kind]
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let checkTimer;
  let checkGen = 0; // a check answered after something newer (a load, a confirm) is dropped
  let statusStale = false; // the placement moved away from the checked one since its verdict was said
  let shownKey = null; // the army the string box is about (the editor's key)

  const body = (msg, setup) => ({ game: msg.game.game, variant: msg.game.variant, seat: msg.seat, setup });

  function sayVerdict(string, text, kind) {
    verdict = [string, text, kind];
    $textarea("setup-string").value = string;
    editor.say(text, kind);
  }

  async function preview(spec) {
    const msg = page.current();
    if (!msg) return;
    try {
      const res = await api("/api/setup-preview", { method: "POST", body: body(msg, spec) });
      checked = JSON.stringify(res.placement);
      checkGen++;
      editor.load(res.placement);
      const left = editor.leftCount();
      sayVerdict(res.string || "", left ? t("Loaded; {n} pieces left in the tray.", { n: left }) : t("Ready: confirm to play."), "good");
    } catch (err) {
      editor.say(err.message, "bad");
      page.say(err.message);
    }
  }

  async function check() {
    const msg = page.current();
    if (!msg || !editor.active) return;
    const placement = editor.placement();
    const key = JSON.stringify(placement);
    const stale = statusStale;
    statusStale = false;
    if (key === checked) {
      // The checked placement came back (a clear, then a load, within one pause): its verdict
      // stands, but the status line moved on meanwhile, so it is said again.
      if (stale && verdict) sayVerdict(...verdict);
      return;
    }
    checked = key;
    verdict = null;
    const gen = ++checkGen;
    const left = editor.leftCount();
    if (!editor.placed()) {
      sayVerdict("", t("{n} pieces in the tray.", { n: left }), "");
      return;
    }
    try {
      const res = await api("/api/setup-preview", { method: "POST", body: body(msg, placement) });
      if (gen !== checkGen) return;
      sayVerdict(res.string || "", left ? t("Legal so far; {n} pieces left in the tray.", { n: left }) : t("Ready: confirm to play."), "good");
    } catch (err) {
      if (gen !== checkGen) return;
      sayVerdict($textarea("setup-string").value, left ? t("{n} pieces left in the tray.", { n: left }) : err.message, left ? "" : "bad");
    }
  }

  function checkSoon() {
    if (JSON.stringify(editor.placement()) !== checked) statusStale = true;
    const left = editor.leftCount();
    if (left) editor.say(t(left === 1 ? "{n} piece left in the tray." : "{n} pieces left in the tray.", { n: left }));
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 150);
  }

  function cancel() {
    clearTimeout(checkTimer);
    checkGen++;
  }

  $button("setup-sample-button").addEventListener("click", () => preview(`sample:${$select("setup-sample").value}`));
  $button("setup-clear").addEventListener("click", () => {
    editor.clear();
    $textarea("setup-string").value = "";
  });
  $button("setup-preview").addEventListener("click", () => {
    const text = $textarea("setup-string").value.trim();
    if (text) preview(text);
    else page.say(t("Type a setup string first, or pick Random or Sample."));
  });
  $textarea("setup-string").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      $button("setup-preview").click();
    }
  });

  /** The samples of the army being set up (its seat's: LOTR's two armies have their own); after `editor.configure`.
   * Another army on screen (hot-seat: the other seat) starts with an empty string box, never the last one's. */
  function render(msg) {
    if (editor.key !== shownKey) {
      shownKey = editor.key;
      $textarea("setup-string").value = "";
      checked = "";
      verdict = null;
    }
    const sample = $select("setup-sample");
    const names = msg.setup.samples || [];
    if (sample.dataset.filled !== names.join("\n")) {
      sample.replaceChildren(...names.map((s) => el("option", { value: s }, t(s))));
      sample.dataset.filled = names.join("\n");
    }
    $button("setup-sample-button").disabled = names.length === 0;
  }

  return { preview, checkSoon, cancel, render };
}

/** The result's lines with each army's setup string, shown once the game is over (`msg.setups`).
 * @param {any} msg
 * @param {(seat: number) => string} seatName */
export function setupLines(msg, seatName) {
  const setups = msg.setups ? Object.entries(msg.setups).filter(([, s]) => s) : [];
  return setups.map(([s, text]) => el("div", { class: "setup-line" }, t("{seat}'s setup: ", { seat: seatName(Number(s)) }), el("code", {}, text)));
}
