import { asciiSlug } from '../manifest/asciiSlug';

/**
 * The name the printed configurations give the MCP server: `svc-` and the app's name in lower case letters, digits and
 * dashes (`svc-polls`; accents dropped), with the start of its id when the name has letters of other scripts
 * (`Опросы Polls` is `svc-polls-faadbcb7`), or its id alone when it has no ASCII letter at all. Two apps in svc dev at
 * once then make two servers that live side by side in one client's configuration (week45 F5: both were `svc`).
 * @internal
 */
export function mcpServerName(app: { name: string; id: string }): string {
  const { slug, whole } = asciiSlug(app.name);
  const short = slug.slice(0, 40).replace(/-+$/, '');
  if (!short) return `svc-${app.id}`;
  return whole ? `svc-${short}` : `svc-${short}-${app.id.slice(0, 8)}`;
}
