import { characterAt, codePointName } from '../../manifest/helpers';
import { jsonQuote } from '../../manifest/jsonQuote';

/**
 * Why the name an app gives a file it saves (`svc.files.save`) is no file name, as a sentence naming the field and
 * what to send; undefined when it is one. A name is shown in the person's files and written to disks by some hosts:
 * a path (`../../etc/passwd`) could leave its folder there, a control character or a bidirectional override
 * (`invoice\u202efdp.exe` shows as `invoiceexe.pdf`), a direction mark, a line separator or an invisible space or
 * byte order mark would show another name than the one saved, and a name of spaces or zero-width characters shows
 * nothing. The joiners (U+200C, U+200D) stay: scripts and emoji sequences need them.
 * @internal
 */
export function fileNameProblem({ name }: { name: string }): string | undefined {
  const quoted = jsonQuote(name);
  if (/[/\\]/.test(name)) {
    const last = name.split(/[/\\]/).filter(Boolean).at(-1);
    return `name ${quoted} is a path: send a file name alone${last ? `, such as ${jsonQuote(last)}` : ''}.`;
  }
  if (name === '.' || name === '..') return `name ${quoted} is no file name: send one such as "result.txt".`;
  // A name of invisible characters alone is said to show nothing, before any of them is named.
  if (/^[\p{White_Space}\p{Cf}]*$/u.test(name))
    return `name ${quoted} shows nothing (only spaces or invisible characters): send a visible name.`;
  const odd = /[\p{Cc}\p{Cs}\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/u.exec(name);
  if (odd)
    return `name ${quoted} holds ${codePointName(odd[0])} at character ${characterAt(name, odd.index)}, which would show another name than the one saved: remove it.`;
  return undefined;
}
