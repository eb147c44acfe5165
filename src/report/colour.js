// Colour on a terminal: the verdict's headline green, amber or red, as the
// report's banner is. Only where a person reads (a TTY whose TERM is not
// dumb), and never when NO_COLOR is set to anything (no-color.org).

const TONES = { ok: '32', unsure: '33', bad: '31' };

/** Whether stream (a TTY) takes colour under env. */
export const colourOn = (stream, env = process.env) => Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb';

/** text in bold and the tone's colour ('ok', 'unsure', 'bad') when on, else text as it is. */
export const paint = (text, tone, on) => (on ? `\x1b[1;${TONES[tone]}m${text}\x1b[0m` : text);
