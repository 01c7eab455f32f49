/**
 * A name in lower case ASCII letters, digits and dashes, for a file or a configuration key: accents dropped
 * (`Zürich Tasks` is `zurich-tasks`, as in NFD or NFC), anything else a dash. `whole` is false when the name held
 * letters or digits of other scripts, which the slug leaves out (`Опросы Polls` is `polls`): a caller that needs the
 * slug to tell apps apart adds something of the app's own.
 * @internal
 */
export function asciiSlug(text: string): { slug: string; whole: boolean } {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const slug = plain.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return { slug, whole: !/[\p{L}\p{N}]/u.test(plain.replace(/[a-z0-9]/g, '')) };
}
