import * as z from 'zod';
import { characterAt, codePointName, loneSurrogate } from './helpers';

/** A character no one-line text shows: C0 controls, DEL and C1 controls (a line break and a tab among them). */
const CONTROL = /\p{Cc}/u;
/** The same, less the line break and the tab a longer text may hold. */
const CONTROL_BUT_LINES = /(?![\t\n])\p{Cc}/u;
/** Text that shows nothing: spaces, format characters (a zero-width space, a joiner) and marks with no base. */
const INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Mn}\p{Me}]*$/u;

/**
 * A string schema whose length bounds count Unicode code points, as JSON Schema `minLength`/`maxLength` do, and
 * that holds text: whole characters, no control characters (a line break and a tab only where `lines` allows), and,
 * when it must not be empty, something visible.
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
      const control = (lines ? CONTROL_BUT_LINES : CONTROL).exec(value);
      if (control) {
        const which = control[0] === '\n' ? 'a line break' : control[0] === '\t' ? 'a tab' : 'the control character';
        refuse(
          'control_character',
          `holds ${which} ${codePointName(control[0])} at character ${characterAt(value, control.index)}: remove it${lines ? '' : '; this text is one line'}`,
        );
      }
      if (min !== undefined && min > 0 && length >= min && INVISIBLE.test(value)) {
        refuse('invisible', 'shows nothing (only spaces or invisible characters): write a visible text');
      }
    })
    .meta({
      description,
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
    });
}
