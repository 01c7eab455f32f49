/**
 * An app's text as the page shows it (a progress message, a toast, a title, a prompt): at most `max` characters
 * (UTF-16 units, never half of a character), the rest said as a count of characters. A text of a megabyte on one line
 * froze the page for a minute as the browser laid it out, and every MCP call waited behind it.
 * @internal
 */
export function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  // A high surrogate last would be half of a character: drawn as a replacement mark.
  const kept = /[\ud800-\udbff]$/.test(text.slice(0, max)) ? text.slice(0, max - 1) : text.slice(0, max);
  let more = 0;
  for (const _ of text.slice(kept.length)) more++;
  return `${kept}… (${more} more characters)`;
}
