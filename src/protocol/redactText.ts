/**
 * Bearer credentials and JWT-shaped values, also glued to a word (`x_eyJ…`, where a `\b` finds no boundary): what
 * {@link redactText} replaces with `'$1[redacted]'`. `SvcError` replaces them itself, without the call (the browser
 * client's budget).
 * @internal
 */
export const TOKENS = /\b(Bearer\s+)\S+|eyJ[\w-]*\.[\w-]*\.[\w-]*/gi;

/**
 * Removes anything shaped like a token from a text, wherever it stands: what an error message, a log or an agent is
 * told never carries a usable credential. (svc dev also removes its own secrets, in whole values: `redactSecrets`.)
 * @internal
 */
export function redactText(text: string): string {
  // `$1` keeps the word Bearer, and is empty where a bare JWT matched.
  return text.replace(TOKENS, '$1[redacted]');
}
