// Sentences (src/report/sentences.js words them once, with Markdown's
// backticks around names, for the terminal and summary.md) as report.html
// shows them: escaped, and each `name` in backticks as <code>, never as
// literal backticks; a shortened frame name carries its full name as a
// title, shown on hover.
import { escapeMarkup as esc } from './escape.js';

/** text as HTML: escaped, each `span` as <code>span</code>, titled with titles.get(span) when there is one. */
export function proseHtml(text, titles = new Map()) {
  return String(text ?? '')
    .split(/(`[^`\n]+`)/)
    .map((part) => {
      const code = /^`([^`\n]+)`$/.exec(part)?.[1];
      if (code === undefined) return esc(part);
      const full = titles.get(code);
      return `<code${full ? ` title="${esc(full)}"` : ''}>${esc(code)}</code>`;
    })
    .join('');
}
