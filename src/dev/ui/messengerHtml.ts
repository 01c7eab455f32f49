/** Options of {@link renderMessengerHtml}. @public */
export interface MessengerHtmlOptions {
  /** Where the page's script is served (same origin). */
  scriptUrl: string;
}

// A speech bubble, inline: no request for /favicon.ico (a 404 in the console on every load).
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath fill='%233867d6' d='M2 2h12v9H6l-4 3z'/%3E%3C/svg%3E";

const escapeAttribute = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The simulated messenger's HTML shell: the page's script builds everything else from the control API. No inline
 * script (the page's CSP has none); the launch token stays in the page's URL, where the script reads it.
 * @public
 */
export function renderMessengerHtml(options: MessengerHtmlOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc dev: simulated messenger</title>
<link rel="icon" href="${FAVICON}">
<script type="module" src="${escapeAttribute(options.scriptUrl)}"></script>
</head>
<body>
<noscript>The simulated messenger needs JavaScript.</noscript>
<div id="messenger" data-testid="messenger">Loading the simulated messenger...</div>
</body>
</html>
`;
}
