import { type DevPageStart, PAGE_START_ID } from '../devContract';

/** Options of {@link renderMessengerHtml}. @public */
export interface MessengerHtmlOptions {
  /** Where the page's script is served (same origin). */
  scriptUrl: string;
  /** What the page starts from (its configuration and the state), inlined: its first screen needs no request. */
  start?: DevPageStart;
  /**
   * The page's script itself, inlined instead of loaded from `scriptUrl` (the page's CSP then names its hash); only
   * when {@link canInlineScript} says it can be.
   */
  script?: string;
}

// A speech bubble, inline: no request for /favicon.ico (a 404 in the console on every load).
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath fill='%233867d6' d='M2 2h12v9H6l-4 3z'/%3E%3C/svg%3E";

const escapeAttribute = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * JSON to put inside a `<script>` element: `<`, `>`, `&` (and the two line separators) as `\uXXXX` escapes, so no
 * string in it can end the element (`</script>`) or open a comment (`<!--`); JSON.parse reads it back unchanged.
 */
export const jsonInScript = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Whether a script's text can sit inside a `<script>` element as it is: nothing in it ends the element or opens a
 * comment (the bundler writes `</script` in strings as `<\/script`, so a build has neither).
 */
export const canInlineScript = (script: string) => !/<\/script|<!--/i.test(script);

/**
 * The simulated messenger's HTML shell: the page's script builds everything else, from its start (the configuration
 * and the state) inlined as a JSON data block, which no CSP runs, then from the page's channel and the control API.
 * The script is inlined too when given (one request in all; the page's CSP allows that script by its hash alone),
 * else loaded from `scriptUrl`. The launch token stays in the page's URL, where the script reads it.
 * @public
 */
export function renderMessengerHtml(options: MessengerHtmlOptions): string {
  const start = options.start
    ? `<script type="application/json" id="${PAGE_START_ID}">${jsonInScript(options.start)}</script>\n`
    : '';
  const inline = options.script !== undefined && canInlineScript(options.script);
  const script = inline
    ? `<script type="module">${options.script}</script>\n`
    : `<script type="module" src="${escapeAttribute(options.scriptUrl)}"></script>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc dev: simulated messenger</title>
<link rel="icon" href="${FAVICON}">
${inline ? '' : script}</head>
<body>
<noscript>The simulated messenger needs JavaScript.</noscript>
<div id="messenger" data-testid="messenger">Loading the simulated messenger...</div>
${start}${inline ? script : ''}</body>
</html>
`;
}

/**
 * The page a stale tab gets (an old launch token, from before svc dev was restarted): what happened and what to do,
 * styled like the messenger, in light or dark as the system prefers.
 * @public
 */
export function renderStaleTabHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc dev: open the new URL</title>
<link rel="icon" href="${FAVICON}">
<style>
:root { color-scheme: light dark; font: 15px/1.5 system-ui, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f5f7; color: #1d2330; }
main { max-width: 520px; padding: 24px 28px; border-radius: 12px; background: #fff; border: 1px solid #d9dde3; }
h1 { font-size: 20px; margin: 0 0 8px; }
code { font-size: 13px; }
@media (prefers-color-scheme: dark) {
  body { background: #15181d; color: #e6e9ee; }
  main { background: #1f242b; border-color: #3a424d; }
}
</style>
</head>
<body>
<main data-testid="stale-tab">
<h1>This tab belongs to an earlier run of svc dev</h1>
<p>svc dev makes a new launch token each time it starts, and this address carries an old one (or none), so the
messenger will not open here.</p>
<p>Open the URL svc dev printed in its terminal, the line that starts with <code>http://127.0.0.1</code>. Your
rooms, grants and cards are still there if you started it with <code>--state</code>.</p>
</main>
</body>
</html>
`;
}
