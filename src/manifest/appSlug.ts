import { asciiSlug } from './asciiSlug';

/**
 * An app's name for a file or a configuration key: its {@link asciiSlug}, cut to `max` characters, with the start of
 * its id when the name has letters of other scripts (`Опросы Polls` is `polls-faadbcb7`), or its id alone when
 * nothing of the name is left, so that two apps never share one. The MCP server's name and `svc pack`'s file name.
 * @internal
 */
export function appSlug(app: { name: string; id: string }, max = Number.POSITIVE_INFINITY): string {
  const { slug, whole } = asciiSlug(app.name);
  const short = slug.slice(0, max).replace(/-+$/, '');
  if (!short) return app.id;
  return whole ? short : `${short}-${app.id.slice(0, 8)}`;
}
