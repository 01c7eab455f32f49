import { characterAt, codePointName } from '../../manifest/helpers';
import { jsonQuote } from '../../manifest/jsonQuote';

/**
 * Why the name an app gives a file it saves (`svc.files.save`) is no file name, as a sentence naming the field and
 * what to send; undefined when it is one. A name is shown in the person's files and written to disks by some hosts:
 * a path (`../../etc/passwd`) could leave its folder there, a control character or a bidirectional override
 * (`invoice\u202efdp.exe` shows as `invoiceexe.pdf`) would show another name than the one saved, and a name of
 * spaces or zero-width characters shows nothing.
 * @internal
 */
export function fileNameProblem({ name }: { name: string }): string | undefined {
  const quoted = jsonQuote(name);
  if (/[/\\]/.test(name)) {
    const last = name.split(/[/\\]/).filter(Boolean).at(-1);
    return `name ${quoted} is a path: send a file name alone${last ? `, such as ${jsonQuote(last)}` : ''}.`;
  }
  if (name === '.' || name === '..') return `name ${quoted} is no file name: send one such as "result.txt".`;
  const odd = /[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/u.exec(name);
  if (odd)
    return `name ${quoted} holds ${codePointName(odd[0])} at character ${characterAt(name, odd.index)}, which would show another name than the one saved: remove it.`;
  if (/^[\p{White_Space}\p{Cf}]*$/u.test(name))
    return `name ${quoted} shows nothing (only spaces or invisible characters): send a visible name.`;
  return undefined;
}
