// An options object to option values: what a library caller passes to
// soak() (any option of a command by the camelCase form of its flag), checked
// by each option's own parser (src/options/parsers.js), so a bad value is the
// SoakError the command line gives for it (exit 2, naming --the-flag). The
// values are those the CLI's parser returns for the same options, ready for
// runConfig.
import { usageError } from '../errors.js';
import { textsOf } from './argv.js';
import { OPTIONS, optionsOf } from './schema.js';

const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

// The negating options (--no-block-contents) by the option they turn off:
// an object gives them as that option set to false.
const NEGATION = new Map(OPTIONS.filter((o) => o.negates).map((o) => [o.negates, o]));

/**
 * command's options that an object may set, by the camelCase form of their
 * flag, less those in own and the negating ones (NEGATION).
 */
export function objectOptions(command, own) {
  return new Map(
    optionsOf(command)
      .filter((o) => !own.has(o.name) && !o.negates)
      .map((o) => [camel(o.name), o]),
  );
}

/**
 * The values (by configuration key) of object's options, taken by options
 * (objectOptions); caller names the API in messages, others its options
 * that are not the command's (listed with them when one is unknown). An absent, null or
 * false value is not given (false for an option with a negating form gives
 * that form); an empty list is given as empty. Throws a
 * SoakError (exit 2) for an option that is not one of them or a value its
 * parser refuses.
 */
export function optionValues(object, options, { caller, others = [] }) {
  const values = {};
  for (const [name, value] of Object.entries(object)) {
    const o = options.get(name);
    if (!o) {
      throw usageError(
        'WS_EOPTION',
        `${caller} has no option "${name}".`,
        `Options: ${[...others, ...options.keys()].join(', ')}.`,
      );
    }
    if (value === false && NEGATION.has(o.name)) {
      values[NEGATION.get(o.name).key] = true;
      continue;
    }
    if (value === undefined || value === null || value === false) continue;
    if (Array.isArray(value) && !value.length) {
      values[o.key] = [];
      continue;
    }
    if (!o.value) {
      if (value !== true)
        throw usageError('WS_EOPTION', `${caller}: ${name} is true or false.`, `Example: ${name}: true`);
      values[o.key] = true;
      continue;
    }
    const parsed = textsOf(o, value).map((text) => o.parse(text, o.name));
    values[o.key] = o.multiple ? parsed : parsed[0];
  }
  return values;
}
