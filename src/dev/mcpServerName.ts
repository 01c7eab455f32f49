/**
 * The name the printed configurations give the MCP server: `svc-` and the app's name in lower case letters, digits and
 * dashes (`svc-polls`), its id when the name has none of them. Two apps in svc dev at once then make two servers that
 * live side by side in one client's configuration (week45 F5: both were `svc`, the second replacing the first).
 * @internal
 */
export function mcpServerName(app: { name: string; id: string }): string {
  const slug = app.name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `svc-${slug || app.id}`;
}
