const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8, or returns undefined when the bytes are not valid UTF-8. @internal */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
