import { closestName } from './closestName';

/** Narrows to a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A character as a person can look it up: `U+001B`, `U+00E9`. */
export function codePointName(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Where the UTF-16 `index` of `text` is, counted in characters (Unicode code points) from 1, as length bounds count:
 * the position a message names, so an emoji before it counts one.
 */
export function characterAt(text: string, index: number): number {
  return [...text.slice(0, index)].length + 1;
}

/**
 * The first lone surrogate of `text` (half of a character: a `\ud800` escape without its other half) and where it is
 * (see {@link characterAt}); undefined when the text is whole characters. In `u` mode a pair is one code point, so
 * `\p{Cs}` matches a surrogate only when it is alone.
 */
export function loneSurrogate(text: string): { character: string; at: number } | undefined {
  const half = /\p{Cs}/u.exec(text);
  return half ? { character: half[0], at: characterAt(text, half.index) } : undefined;
}

/** Shows a value in a message: JSON for small values, the type name otherwise. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  return json !== undefined && json.length <= 40 ? json : Array.isArray(value) ? 'an array' : typeof value;
}

/** Names the kind of a value for "got ...": `null`, `an array`, `an object`, or its type and value. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${show(value)}`;
}

/**
 * The sentence for a value outside a fixed list: the allowed values, what was given and, when one is close, what to
 * write. `suggest` names the field's own likely intent (checked before case and spelling).
 */
export function notAllowed(
  values: readonly unknown[],
  given: unknown,
  suggest: (given: string, allowed: string[]) => string | undefined = () => undefined,
): string {
  const options = values.map((v) => show(v));
  const strings = values.filter((v): v is string => typeof v === 'string');
  let hint = '';
  if (typeof given === 'string') {
    const sameButCase = strings.find((v) => v.toLowerCase() === given.toLowerCase());
    const near = suggest(given, strings) ?? closestName(given, strings);
    if (sameButCase !== undefined) hint = `; write ${show(sameButCase)}`;
    else if (near !== undefined) hint = `; did you mean ${show(near)}?`;
  }
  return options.length === 1
    ? `must be ${options[0]}; got ${show(given)}${hint}`
    : `must be one of ${options.join(', ')}; got ${show(given)}${hint}`;
}

/**
 * The error option of an array's `.min()`: the sentence for too few items, followed by the field's advice on what to
 * add, as in `.min(2, tooFew('add icons in at least two sizes'))`.
 */
export function tooFew(advice: string): { error: (issue: { minimum: unknown; input: unknown }) => string } {
  return {
    error: ({ minimum, input }) => {
      const count = Array.isArray(input) ? input.length : 0;
      return `must have at least ${minimum} item${Number(minimum) === 1 ? '' : 's'}; it has ${count}; ${advice}`;
    },
  };
}
