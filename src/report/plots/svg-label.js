// What an SVG figure says to readers and screen readers: its title, its
// description and its key entries, in place of gnuplot's own names.
import { readFile, writeFile } from 'node:fs/promises';
import { escapeMarkup } from '../escape.js';

// Names an SVG figure for readers and screen readers: gnuplot's document
// title ("Gnuplot") becomes the figure's, its description says what the
// figure shows, and each plot's title ("gnuplot_plot_3") its key entry.
function describeSvg(svg, title, desc) {
  return svg
    .replace(/<title>Gnuplot<\/title>/, `<title>${escapeMarkup(title)}</title>`)
    .replace(/<desc>Produced by GNUPLOT[^<]*<\/desc>/, `<desc>${escapeMarkup(desc)}</desc>`)
    .replace(
      /(<g id="gnuplot_plot_\d+"\s*>)<title>gnuplot_plot_\d+<\/title>([\s\S]*?)(?=<g id="gnuplot_plot_|$)/g,
      (_all, open, body) => {
        const key = /<text>([^<]*)<\/text>/.exec(body);
        return key ? `${open}<title>${key[1]}</title>${body}` : `${open}${body}`;
      },
    );
}

export async function labelSvg(path, spec) {
  await writeFile(path, describeSvg(await readFile(path, 'utf8'), spec.vars.title, spec.desc));
}
