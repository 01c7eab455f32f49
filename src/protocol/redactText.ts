/**
 * Bearer credentials and JWT-shaped values, also glued to a word (`x_eyJ…`, where a `\b` finds no boundary): what
 * {@link redactText} replaces with `'$1[redacted]'`. `SvcError` replaces them itself, without the call (the browser
 * client's budget).
 * @internal
 */
export const TOKENS = /\b(Bearer\s+)\S+|eyJ[\w-]*\.[\w-]*\.[\w-]*/gi;

/**
 * {@link TOKENS}, and the forms ordinary code gives them on the way: `Basic <base64>` (an API that takes a token as
 * its password, echoed in an upstream's error), and a JWT a logger wrapped or spaced at its dots, or whose dots a URL
 * encoded (`%2E`). Not in the browser client, whose budget has no room for it: its errors carry the host's words.
 */
const TOKEN_FORMS = /\b((?:Bearer|Basic)\s+)\S+|eyJ[\w-]*(?:\s*(?:\.|%2E)\s*[\w-]*){2}/gi;

/**
 * Removes anything shaped like a token from a text, wherever it stands: what an error message, a log or an agent is
 * told never carries a usable credential. (svc dev also removes its own secrets, in whole values: `redactSecrets`.)
 * @internal
 */
export function redactText(text: string): string {
  // `$1` keeps the word Bearer or Basic, and is empty where a bare JWT matched.
  return text.replace(TOKEN_FORMS, '$1[redacted]');
}
