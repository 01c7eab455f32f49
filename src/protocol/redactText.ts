/**
 * Bearer credentials and JWT-shaped values, also glued to a word (`x_eyJ…`, where a `\b` finds no boundary): what
 * {@link redactText} replaces with `'$1[redacted]'`. `SvcError` replaces them itself, without the call (the browser
 * client's budget).
 * @internal
 */
export const TOKENS = /\b(Bearer\s+)\S+|eyJ[\w-]*\.[\w-]*\.[\w-]*/gi;

/**
 * A credential after the word or words of its scheme, however they are joined (`Bearer x`, `Basic Basic x`,
 * `Basic:x`, `"Basic","x"`): a `Bearer` one always, a `Basic` one when it is the base64 of a user and a password (an
 * API that takes a token as its password, echoed in an upstream's error), so that "a basic poll" stays as it is.
 */
const SCHEME = /\b((?:(?:Bearer|Basic)[\s"':,=]+)+)([^\s"',\]]+)/gi;
/**
 * A JWT as a logger wraps or spaces it at its dots, or as a URL encodes its dots (`%2E`); its header and claims too,
 * where a cut took the rest.
 */
const JWT_FORMS = /eyJ[\w-]*(?:\s*(?:\.|%2E)\s*[\w-]*){1,2}/gi;

/**
 * Whether `credential` is the base64 of `user:password`, or the start of one: a message cut at its length limit (the
 * app's client cuts at 1,000 characters, before this redaction) may end inside it, and what is left of it still
 * holds the most of a token.
 */
const isUserPassword = (credential: string) => {
  const whole = credential.slice(0, credential.length - (credential.length % 4));
  try {
    return whole.length > 0 && atob(whole).includes(':');
  } catch {
    return false;
  }
};

/**
 * Removes anything shaped like a token from a text, wherever it stands: what an error message, a log or an agent is
 * told never carries a usable credential. (svc dev also removes its own secrets, in whole values: `redactSecrets`.)
 * Wider than {@link TOKENS}, which the browser client's budget has no room beyond.
 * @internal
 */
export function redactText(text: string): string {
  return text
    .replace(SCHEME, (all, scheme: string, credential: string) =>
      /^bearer/i.test(scheme) || isUserPassword(credential) ? `${scheme}[redacted]` : all,
    )
    .replace(JWT_FORMS, '[redacted]');
}
