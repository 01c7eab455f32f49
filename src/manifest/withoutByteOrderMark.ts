/**
 * A file's text without the UTF-8 byte order mark some Windows editors write first: `svc validate`, `svc pack` and
 * `svc dev` all read a manifest through it, so a file one of them accepts is not refused by another.
 * @internal
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
