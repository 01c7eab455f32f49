import { characterAt, codePointName } from '../../manifest/helpers';
import { jsonQuote } from '../../manifest/jsonQuote';

/**
 * Why the name an app gives a file it saves (`svc.files.save`) is no file name, as a sentence naming the field and
 * what to send; undefined when it is one. A name is shown in the person's files and written to disks by some hosts:
 * a path (`../../etc/passwd`) could leave its folder there, a control character or a bidirectional override
 * (`invoice\u202efdp.exe` shows as `invoiceexe.pdf`), a direction mark, a line separator or an invisible space or
 * byte order mark, or any other invisible character, would show another name than the one saved, and a name of
 * spaces or zero-width characters shows nothing. The joiners (U+200C, U+200D) and the tags of a flag emoji stay:
 * scripts and emoji sequences need them.
 * @internal
 */
export function fileNameProblem({ name }: { name: string }): string | undefined {
  const quoted = jsonQuote(name);
  if (/[/\\]/.test(name)) {
    const last = name.split(/[/\\]/).filter(Boolean).at(-1);
    return `name ${quoted} is a path: send a file name alone${last ? `, such as ${jsonQuote(last)}` : ''}.`;
  }
  // What a person sees of the name: without its spaces and invisible characters (format characters, the combining
  // grapheme joiner, variation selectors, the Hangul fillers, the blank braille pattern).
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched alone, a combining one too
  const seen = name.replace(/[\p{White_Space}\p{Cf}\u034f\u115f\u1160\u2800\u3164\ufe00-\ufe0f\uffa0]/gu, '');
  // A name of invisible characters alone is said to show nothing, before any of them is named.
  if (seen === '') return `name ${quoted} shows nothing (only spaces or invisible characters): send a visible name.`;
  if (seen === '.' || seen === '..') return `name ${quoted} is no file name: send one such as "result.txt".`;
  // An invisible character inside a name; the joiners (and the tags of a flag emoji) are part of what it shows.
  const odd =
    // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is matched alone, a combining one too
    /[\p{Cc}\p{Cs}\u2028\u2029\u034f\u115f\u1160\u3164\uffa0]|(?![\u200c\u200d\u{e0020}-\u{e007f}])\p{Cf}/u.exec(name);
  if (odd)
    return `name ${quoted} holds ${codePointName(odd[0])} at character ${characterAt(name, odd.index)}, which would show another name than the one saved: remove it.`;
  return undefined;
}
