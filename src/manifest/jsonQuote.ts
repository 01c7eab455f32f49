/**
 * `text` as a JSON string with every character outside printable ASCII written as its `\u` escape: how a message
 * quotes what a client sent (an id, a header, a deep link), so that a trailing space, an invisible or look-alike
 * character, or a lone surrogate shows, and two strings that look the same on screen do not look the same in it.
 * @example
 * ```ts
 * jsonQuote('au-alice '); // '"au-alice "'
 * jsonQuote('/cafe\u0301'); // '"/cafe\\u0301"'
 * ```
 * @internal
 */
export function jsonQuote(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
