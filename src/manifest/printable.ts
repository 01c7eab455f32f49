/**
 * A character no terminal line may carry as it is: a control character (a newline would start a line that looks like
 * the command's own, an escape sequence would drive the terminal), a line or paragraph separator (a line break to
 * some terminals), a bidirectional control, which reorders what follows it on screen, or a character that shows
 * nothing where text is (a zero-width space, a word joiner, a soft hyphen, a byte order mark, a Hangul filler, a
 * tag).
 */
const UNPRINTABLE_CLASS =
  '[\\p{Cc}\\u00ad\\u115f\\u1160\\u200b\\u2028\\u2029\\u202a-\\u202e\\u2060\\u2066-\\u2069\\u3164\\ufeff\\uffa0\\u{e0000}-\\u{e007f}]';
const UNPRINTABLE = new RegExp(UNPRINTABLE_CLASS, 'gu');
/** The same, less the line break and the tab of a text of several lines (a backend's indented JSON). */
const UNPRINTABLE_BUT_LINES = new RegExp(`(?![\\n\\t])${UNPRINTABLE_CLASS}`, 'gu');

/** `c` as JSON would escape it: `\u` and four hex digits for each of its UTF-16 units (two for a tag). */
const escaped = (c: string) =>
  Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * `text` with each unprintable character written as its `\u` escape, as JSON would: for what others wrote (a
 * reported URL, an agent's name, an app's name or file names, a backend's answer) on the terminal. `lines` keeps
 * line breaks and tabs, for a text shown as several lines.
 * @internal
 */
export function printable(text: string, { lines = false }: { lines?: boolean } = {}): string {
  return text.replace(lines ? UNPRINTABLE_BUT_LINES : UNPRINTABLE, escaped);
}
