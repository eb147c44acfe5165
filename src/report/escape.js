// HTML and SVG text escaping, one rule for every renderer.

/** s as text safe inside HTML or SVG elements and attributes. */
export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
