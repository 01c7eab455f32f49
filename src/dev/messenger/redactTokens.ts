import { redactSecrets } from '../redactSecrets';

/** Shows anything that looks like a token as redacted, in keys too: the page never shows a usable credential. */
function redactTokens(value: unknown): unknown {
  return redactSecrets(JSON.parse(JSON.stringify(value ?? null, (_k, v) => (v instanceof Blob ? '[Blob]' : v))));
}

/** JSON for people: indented, `undefined` named as such, tokens redacted; a value too deep to serialise says so. */
export const prettyJson = (value: unknown) => {
  try {
    return value === undefined ? 'undefined' : (JSON.stringify(redactTokens(value), null, 2) ?? 'undefined');
  } catch {
    return '(nested too deeply to show)';
  }
};
