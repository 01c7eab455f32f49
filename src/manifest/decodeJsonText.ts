/** A file's text, or why its bytes are no UTF-8 text, with the line and column of the first byte that is not. */
export type DecodedText = { ok: true; text: string } | { ok: false; message: string; line?: number; column?: number };

/**
 * A JSON file's bytes as text: UTF-8, without the byte order mark some Windows editors write first. `svc validate`,
 * `svc pack` and `svc dev` all read a manifest through it, so a file one of them accepts is not refused by another,
 * and none repairs what a package verifier refuses.
 *
 * @remarks
 * JSON is UTF-8 (RFC 8259), and a package's `/manifest.json` must be: a byte that is not UTF-8 (an accented letter
 * saved as Latin-1) is refused where it is, not replaced with U+FFFD, which would change the name people see.
 * A UTF-16 file is told as such: its text shows as nothing but odd tokens to a UTF-8 reader.
 * @internal
 */
export function decodeJsonText(bytes: Uint8Array): DecodedText {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  // Without its mark, UTF-16 of ASCII text has a zero in every other byte, from the first character on.
  if (utf16 || (bytes.length >= 2 && (bytes[0] === 0) !== (bytes[1] === 0)))
    return { ok: false, message: 'is UTF-16 text; save it as UTF-8' };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    // Decoded again a byte at a time, the decoder throws at the byte that shows a sequence is no character; the
    // sequence began after the last character it completed.
    const stream = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    let at = 0;
    try {
      for (let i = 0; i < bytes.length; i++)
        if (stream.decode(bytes.subarray(i, i + 1), { stream: true }) !== '') at = i + 1;
      stream.decode();
    } catch {
      // `at` is where the sequence it refused began.
    }
    const before = new TextDecoder().decode(bytes.subarray(0, at));
    const line = before.split('\n').length;
    const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
    const byte = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
    return {
      ok: false,
      message: `is not UTF-8: byte 0x${byte} at line ${line}, column ${column} is no UTF-8 character (a file saved as Latin-1 or Windows-1252?); save it as UTF-8`,
      line,
      column,
    };
  }
}
