/** The most of a long JSON text (a call's result or params, a payload) the page lays out; the rest is counted. */
export const SHOWN_CHARACTERS = 10_000;

/**
 * An app's text as the page shows it (a progress message, a toast, a title, a prompt, a relayed call's result): at
 * most `max` characters (code points, never half of one, and never a part of an emoji sequence or a letter without
 * its accent), the rest said as a count of characters. A text of a megabyte on one line froze the page for a minute
 * as the browser laid it out, and every MCP call waited behind it.
 * @internal
 */
export function clipped(text: string, max: number): string {
  // Fewer UTF-16 units than `max` is fewer characters too: most texts end here, unread.
  if (text.length <= max) return text;
  let end = 0;
  let count = 0;
  for (const character of text) {
    if (count === max) break;
    end += character.length;
    count++;
  }
  if (end === text.length) return text;
  end = graphemeStart(text, end);
  let more = 0;
  for (const _ of text.slice(end)) more++;
  return `${text.slice(0, end)}… (${more} more ${more === 1 ? 'character' : 'characters'})`;
}

/**
 * Where the grapheme (what a person sees as one character: 👨‍👩‍👧, 🇫🇷, é as e and its accent) that `at` falls in
 * starts, so that a cut there leaves none of it half drawn; `at` itself where it starts one, or where the browser has
 * no segmenter. The text is read from its start (a flag's two halves pair from the start of their run), to a little
 * after `at`, which is at most twice the cut's length in: never the whole of a text of megabytes.
 */
function graphemeStart(text: string, at: number): number {
  if (typeof Intl === 'undefined' || !('Segmenter' in Intl)) return at;
  let start = 0;
  for (const { index } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text.slice(0, at + 64))) {
    if (index > at) break;
    start = index;
  }
  // A text that is one cluster up to the cut (a letter under thousands of accents) is cut where the count says.
  return start > 0 ? start : at;
}
