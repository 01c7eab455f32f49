/**
 * Latin letters no decomposition takes to ASCII, spelled as their languages write them without (recheck47 F3:
 * `Straße` was `stra-e`, `Łódź` `odz`).
 */
const LATIN: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŋ: 'n',
  ĸ: 'k',
  ſ: 's',
  ŧ: 't',
};

/**
 * A name in lower case ASCII letters, digits and dashes, for a file or a configuration key: accents dropped
 * (`Zürich Tasks` is `zurich-tasks`, as in NFD or NFC), {@link LATIN} letters spelled out (`Straße` is `strasse`),
 * anything else a dash. `whole` is false when the name held letters or digits of other scripts, which the slug leaves
 * out (`Опросы Polls` is `polls`): a caller that needs the slug to tell apps apart adds something of the app's own.
 * @internal
 */
export function asciiSlug(text: string): { slug: string; whole: boolean } {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþıħŋĸſŧ]/g, (c) => LATIN[c] ?? c);
  const slug = plain.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return { slug, whole: !/[\p{L}\p{N}]/u.test(plain.replace(/[a-z0-9]/g, '')) };
}
