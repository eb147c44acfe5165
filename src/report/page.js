// The one HTML shell of every page wasm-soak writes (report.html, a suite's
// index.html, compare.html): one stylesheet with light and dark colours,
// a narrow layout for phones (390 px) and a print layout, one banner, one
// frame. Pages are self-contained: inline CSS and SVG, no script, no
// network (the Content-Security-Policy says so to the browser). Marks are
// words on coloured badges, so no page needs an emoji font.
import { escapeMarkup as esc } from './escape.js';

const CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1d232b;--card:#fff;--line:#dfe3e8;--rule:#eceff2;--muted:#5b6570;--code:#f0f2f5;--ok:#1e7d3a;--bad:#b3261e;--warn:#8a5a00;--unsure:#8a5a00;--note:#fff6db;--noteline:#f0d67a}
@media (prefers-color-scheme:dark){:root{--bg:#14171b;--fg:#e2e6ea;--card:#1d2126;--line:#353b43;--rule:#2b3036;--muted:#9ba5b0;--code:#262b31;--ok:#23703a;--bad:#a8281f;--warn:#e0b05a;--unsure:#7a5200;--note:#33301c;--noteline:#6e6020}
figure svg{filter:invert(.9) hue-rotate(180deg)}}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:var(--fg);background:var(--bg)}
main,.wrap{max-width:1060px;margin:0 auto;padding:0 16px 48px}
.banner .wrap{padding-bottom:0}
.banner{padding:14px 24px;color:#fff;margin-bottom:12px}
.banner.ok{background:var(--ok)}.banner.bad{background:var(--bad)}.banner.unsure{background:var(--unsure)}
.banner h1{margin:0;font-size:24px;overflow-wrap:anywhere}.banner p{margin:4px 0 0;font-size:16px;overflow-wrap:anywhere}
.banner .sub{opacity:.85;font-size:14px}
section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:12px 20px;margin:12px 0}
h2{font-size:18px;margin:4px 0 10px}
#next ol{margin:0;padding-left:22px}#next li{margin:2px 0}#next pre{margin:4px 0 6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:3px 12px 3px 0;text-align:left;vertical-align:top}
table.grid th,table.grid td{border-bottom:1px solid var(--rule);text-align:right;padding:4px 10px}
table.grid th:first-child,table.grid td:first-child{text-align:left}
table.grid td.text,table.grid th.text{text-align:left;white-space:normal;min-width:12em}
.scroll{overflow-x:auto;max-width:100%}.plot.narrow{display:none}
.finding{border-left:4px solid var(--bad);padding:2px 0 2px 14px;margin:12px 0}
.finding p{margin:0 0 6px;font-weight:600}
.finding th{color:var(--muted);font-weight:normal}
figure{margin:8px 0 18px}.plot svg{display:block;width:100%;height:auto;max-height:80vh}
figcaption{color:var(--muted);font-size:13px}
pre{background:var(--code);padding:8px 10px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}
.note{background:var(--note);border:1px solid var(--noteline);padding:4px 14px;margin:8px 0}
.muted{color:var(--muted)}
ul.long li{overflow-wrap:anywhere}
h3{font-size:15px;margin:14px 0 6px}
table.sources td.found{color:var(--ok);font-weight:600}table.sources td.missing{color:var(--warn);font-weight:600}
table.sources td{padding-bottom:6px}table.sources th{white-space:nowrap}table.grid td{white-space:nowrap}
.mark{display:inline-block;padding:0 8px;border-radius:9px;color:#fff;font-weight:600;font-size:13px;white-space:nowrap}
.mark.passed,.mark.ok{background:var(--ok)}.mark.failed,.mark.bad{background:var(--bad)}.mark.error,.mark.skipped,.mark.unsure{background:var(--unsure)}
details summary{cursor:pointer;color:var(--muted)}
@media (max-width:700px){body{font-size:14px}main,.wrap{padding:0 8px 32px}.banner{padding:12px 8px}.banner h1{font-size:20px}
section{padding:10px 12px}.plot{overflow-x:auto}.plot:not(.narrow) svg{min-width:760px}.plot.fits svg{min-width:0}.plot svg{max-height:none}
.plot.wide{display:none}.plot.narrow{display:block}table.sources th{white-space:normal}
table.grid.fit th,table.grid.fit td{white-space:normal;padding:4px 5px}table.grid.fit .text{min-width:0}
table.cards thead{display:none}table.cards tr{display:block;border-bottom:1px solid var(--rule);padding:6px 0}
table.cards td,table.cards td:first-child{display:inline-block;border:0;text-align:left;padding:2px 10px 2px 0}
table.cards td[data-label]::before{content:attr(data-label) ": ";color:var(--muted)}table.cards td.text{display:block}}
@media print{.plot.wide{display:block}.plot.narrow{display:none}:root{--bg:#fff;--card:#fff;--fg:#000;--code:#f3f3f3}body{font-size:11pt}
.banner,.mark{print-color-adjust:exact;-webkit-print-color-adjust:exact}section{border:0;padding:0;margin:10px 0}
section,figure,.finding,table,tr,pre{break-inside:avoid}h2,h3{break-after:avoid}figure svg{filter:none}details>*{display:block}
.plot svg{max-height:none}.scroll{overflow:visible}table.grid{font-size:9pt}table.grid th,table.grid td{padding:2px 5px;white-space:normal}}
`;

/**
 * The banner at the top of a page: tone 'ok' | 'bad' | 'unsure' (its
 * colour), title, text (or textHtml: the text as markup already, e.g.
 * proseHtml's) and sub (a muted line; null for none), id of the header
 * element.
 */
export function banner({ tone, title, text, textHtml = null, sub = null, id = 'verdict' }) {
  return `<header class="banner ${tone}" id="${esc(id)}"><div class="wrap">
<h1>${esc(title)}</h1><p>${textHtml ?? esc(text)}</p>${sub ? `<p class="sub">${esc(sub)}</p>` : ''}</div></header>`;
}

/** A mark: a word on a badge of the given tone (passed, failed, error, ok, bad, unsure). */
export const mark = (tone, word) => `<span class="mark ${esc(tone)}">${esc(word)}</span>`;

/** The whole page: title (the tab's), head (the banner's markup), body (the sections' markup), footer text. */
export function htmlPage({ title, head, body, footer, css = '' }) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}${css}</style></head>
<body>${head}<main>
${body}
<p class="muted">${esc(footer)}</p>
</main></body></html>
`;
}
