import { appSlug } from '../manifest/appSlug';

/**
 * The name the printed configurations give the MCP server: `svc-` and the app's name in lower case letters, digits and
 * dashes (`svc-polls`; accents dropped), with the start of its id when the name has letters of other scripts
 * (`Опросы Polls` is `svc-polls-faadbcb7`), or its id alone when it has no ASCII letter at all. Two apps in svc dev at
 * once then make two servers that live side by side in one client's configuration (week45 F5: both were `svc`).
 * @internal
 */
export function mcpServerName(app: { name: string; id: string }): string {
  return `svc-${appSlug(app, 40)}`;
}
