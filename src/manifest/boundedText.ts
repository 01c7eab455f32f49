import * as z from 'zod';
import { characterAt, codePointName, loneSurrogate } from './helpers';

/** A character no one-line text shows: C0 controls, DEL and C1 controls (a line break and a tab among them). */
const CONTROL = /\p{Cc}/u;
/** The same, less the line break and the tab a longer text may hold. */
const CONTROL_BUT_LINES = /(?![\t\n])\p{Cc}/u;
/** The line and paragraph separators, line breaks to a browser and to some terminals, not to JSON or a manifest. */
const SEPARATOR = /[\u2028\u2029]/u;
/**
 * Text that shows nothing: spaces, format characters (a zero-width space, a joiner), marks with no base, and the
 * letters that draw as blanks (the Hangul fillers, the blank braille pattern).
 */
const INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Mn}\p{Me}\u115f\u1160\u2800\u3164\uffa0]*$/u;
/** A flag emoji's tag sequence (a black flag, tags, a cancel tag), which shows as one flag: its tags are not hidden. */
const FLAG = /\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f}/gu;
/** The bidirectional embeddings, overrides and isolates: each reorders the text after it. */
const REORDERS = /[\u202a-\u202e\u2066-\u2069]/u;
/**
 * A format character that hides: every one (a zero-width space, a word joiner, a soft hyphen, a byte order mark, a
 * tag, an invisible operator) but the joiners and direction marks that scripts, emoji and right-to-left text need
 * (U+200C to U+200F, U+061C) and those that draw, the prepended number signs and the hieroglyph and shorthand
 * format controls.
 */
const HIDES =
  /(?![\u200c-\u200f\u061c\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}])\p{Cf}/u;

/**
 * Why `value` would show other than it reads, as the rest of a sentence; undefined when it shows what it holds.
 * An app's name, its actions' titles and descriptions, and the words of their schemas are shown to people and read
 * by agents: a right-to-left override makes `Pay\u202egnp.exe` show as `Payexe.png`, and tag characters carry a
 * sentence a model reads and no person sees.
 * @internal
 */
export function hiddenCharacter(value: string): string | undefined {
  const unflagged = value.replace(FLAG, (flag) => '\u{1f3f4}'.padEnd(flag.length, ' '));
  const odd = REORDERS.exec(unflagged) ?? HIDES.exec(unflagged);
  if (!odd) return undefined;
  const what = REORDERS.test(odd[0])
    ? `the bidirectional control ${codePointName(odd[0])} at character ${characterAt(value, odd.index)}, which reorders the text after it`
    : `the invisible format character ${codePointName(odd[0])} at character ${characterAt(value, odd.index)}, which a person does not see (an agent reads it)`;
  return `holds ${what}: remove it, so that the text shows as it reads (right-to-left text keeps its order with the marks U+200E and U+200F)`;
}

/**
 * The control characters and line separators `value` holds that its kind of text may not, each as the rest of a
 * sentence: a one-line text none, a longer text (`lines`) only line breaks and tabs.
 * @internal
 */
export function controlCharacters(value: string, lines: boolean): string[] {
  const problems: string[] = [];
  const control = (lines ? CONTROL_BUT_LINES : CONTROL).exec(value);
  if (control) {
    const which = control[0] === '\n' ? 'a line break' : control[0] === '\t' ? 'a tab' : 'the control character';
    problems.push(
      `holds ${which} ${codePointName(control[0])} at character ${characterAt(value, control.index)}: remove it${lines ? '' : '; this text is one line'}`,
    );
  }
  const separator = SEPARATOR.exec(value);
  if (separator)
    problems.push(
      `holds the ${separator[0] === '\u2028' ? 'line' : 'paragraph'} separator ${codePointName(separator[0])} at character ${characterAt(value, separator.index)}: ${lines ? 'write a line break (\\n) instead' : 'remove it; this text is one line'}`,
    );
  return problems;
}

/**
 * A string schema whose length bounds count Unicode code points, as JSON Schema `minLength`/`maxLength` do, and
 * that holds text: whole characters, no control characters or line separators (a line break and a tab only where
 * `lines` allows), no character that makes it show other than it reads (a bidirectional override, a zero-width space,
 * a tag), and, when it must not be empty, something visible.
 *
 * @remarks
 * zod's own `.min()`/`.max()` count UTF-16 code units, so an emoji would count twice and a name that an editor
 * accepts through the JSON Schema could fail here. The bounds are written into the JSON Schema through `.meta()`.
 * A lone surrogate (`"\ud800"` in JSON) has no UTF-8 form, so no package, store or terminal could carry it; a
 * control character in a name could rewrite the terminal line or the store's listing that shows it.
 */
export function boundedText(
  min: number | undefined,
  max: number | undefined,
  description: string,
  { lines = false }: { lines?: boolean } = {},
) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const refuse = (code: string, message: string) => ctx.addIssue({ code: 'custom', message, params: { code } });
      const length = [...value].length;
      if (min !== undefined && length < min) {
        ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: value });
      }
      if (max !== undefined && length > max) {
        ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value });
      }
      const half = loneSurrogate(value);
      if (half) {
        refuse(
          'not_text',
          `holds half of a character (a lone surrogate, ${codePointName(half.character)}) at character ${half.at}: write the whole character or remove it`,
        );
      }
      for (const problem of controlCharacters(value, lines)) refuse('control_character', problem);
      if (min !== undefined && min > 0 && length >= min && INVISIBLE.test(value)) {
        refuse('invisible', 'shows nothing (only spaces or invisible characters): write a visible text');
      } else {
        const hidden = hiddenCharacter(value);
        if (hidden) refuse('hidden_character', hidden);
      }
    })
    .meta({
      description,
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
    });
}
