// @ts-check
// Small SVG helpers for the boards (every board, the replay renderers and the setup editor draw with these), and an arrow.
const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export function svgText(attrs, text) {
  const node = svg("text", attrs);
  node.textContent = text;
  return node;
}

/** An arrow from point a to point b (board units), starting `start` after a and stopping `gap` short of b;
 * `cls` is added to its class. */
export function arrow(a, b, cls = "", gap = 43, start = 0) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const tip = { x: b.x - ux * gap, y: b.y - uy * gap };
  const extra = cls ? ` ${cls}` : "";
  return svg("g", { class: `arrow-group${extra}` },
    svg("line", { class: `arrow${extra}`, x1: a.x + ux * start, y1: a.y + uy * start, x2: tip.x - ux * 14, y2: tip.y - uy * 14 }),
    svg("path", {
      class: `arrowhead${extra}`,
      d: `M${tip.x} ${tip.y} L${tip.x - ux * 26 - uy * 16} ${tip.y - uy * 26 + ux * 16} L${tip.x - ux * 26 + uy * 16} ${tip.y - uy * 26 - ux * 16} Z`,
    }));
}
