/**
 * The warning for a page of the package that carries its own `<meta name="svc-host-origins">`, or undefined: the host
 * writes that tag into each page it serves, so one in the package is a leftover of development (`svc dev --app-url`
 * asks the dev server's page for it), and would name a development origin, such as svc dev's loopback one, in what
 * ships. Only `.html` files are looked at.
 * @internal
 */
export function hostOriginsTagIn(path: string, body: Uint8Array): string | undefined {
  if (!/\.html?$/i.test(path)) return undefined;
  // The tag's attributes in any order and quoting; a page's text is ASCII there whatever its encoding but UTF-16.
  const tag = /<meta\b[^>]*\bname\s*=\s*["']?svc-host-origins\b[^>]*>/i.exec(Buffer.from(body).toString('latin1'));
  if (!tag) return undefined;
  const named = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag[0]);
  const origins = named ? (named[1] ?? named[2] ?? named[3] ?? '').trim() : '';
  return `${path.replace(/^\//, '')} carries <meta name="svc-host-origins"${origins ? ` content="${origins}"` : ''}>: the host writes this tag into each page it serves, so yours ships a development origin in the package; add it only while developing (with Vite, a plugin's transformIndexHtml with apply: 'serve')`;
}
