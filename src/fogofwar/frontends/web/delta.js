// @ts-check
// The server sends a connection its seat's whole state message once, then after every change only a delta:
// {type: "delta", v, events, patch}, the patch turning the state numbered v-1 into the one numbered v (the
// server's delta.py writes them; this reads them the same way). A delta that does not follow the state held
// is a gap: the page asks for the whole state again ({type: "sync", v}).

/**
 * `value` changed by `patch`; `value` itself is left as it was (the parts that did not change are shared).
 *  - {"=": value}: the new value, whole;
 *  - {o: {key: patch}, d: [key]}: an object, some of its keys changed (or new), some gone;
 *  - {l: [drop, keep, [[i, patch]], items]}: a list, `drop` items cut from its front, the next `keep` kept
 *    (some of them patched, by their new index) and the items appended.
 * @param {any} value
 * @param {any} patch
 * @returns {any}
 */
export function applyPatch(value, patch) {
  if ("=" in patch) return patch["="];
  if ("l" in patch) {
    const [drop, keep, sets, add] = patch.l;
    if (!Array.isArray(value) || drop + keep > value.length) throw new Error("a list patch for a value that is no list this long");
    const out = value.slice(drop, drop + keep);
    for (const [i, p] of sets) out[i] = applyPatch(out[i], p);
    out.push(...add);
    return out;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("an object patch for a value that is no object");
  const gone = new Set(patch.d || []);
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, v] of Object.entries(value)) if (!gone.has(k)) out[k] = v;
  for (const [k, p] of Object.entries(patch.o || {})) out[k] = applyPatch(out[k], p);
  return out;
}

/**
 * The state message a client holds after the server's `msg` (a state or a delta), given the one it `held`:
 * `held` itself for a delta it has seen already (not newer than what it holds) or any other message, null for
 * a delta that does not follow (a gap: ask for the whole state again).
 * @param {any} held
 * @param {any} msg
 * @returns {any}
 */
export function follow(held, msg) {
  if (msg.type === "state") return msg;
  if (msg.type !== "delta") return held;
  if (!held) return null;
  if (msg.v <= held.v) return held;
  if (msg.v !== held.v + 1) return null;
  return { ...applyPatch(held, msg.patch), v: msg.v };
}
