/**
 * An app's text as the page shows it (a progress message, a toast, a title, a prompt): at most `max` characters, the
 * rest said as a count. A text of a megabyte on one line froze the page for a minute as the browser laid it out, and
 * every MCP call waited behind it.
 * @internal
 */
export function clipped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
