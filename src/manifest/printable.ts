/**
 * A character no terminal line may carry as it is: a control character (a newline would start a line that looks like
 * the command's own, an escape sequence would drive the terminal) or a bidirectional override, which reorders what
 * follows it on screen.
 */
const UNPRINTABLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `text` with each unprintable character written as its `\u` escape, as JSON would: for what others wrote (a
 * reported URL, an agent's name, an app's name or file names) on a line of the terminal.
 * @internal
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
