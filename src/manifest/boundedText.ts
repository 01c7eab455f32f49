import * as z from 'zod';

/**
 * A string schema whose length bounds count Unicode code points, as JSON Schema `minLength`/`maxLength` do.
 *
 * @remarks
 * zod's own `.min()`/`.max()` count UTF-16 code units, so an emoji would count twice and a name that an editor
 * accepts through the JSON Schema could fail here. The bounds are written into the JSON Schema through `.meta()`.
 */
export function boundedText(min: number | undefined, max: number | undefined, description: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const length = [...value].length;
      if (min !== undefined && length < min) {
        ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: value });
      }
      if (max !== undefined && length > max) {
        ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: value });
      }
    })
    .meta({
      description,
      ...(min !== undefined ? { minLength: min } : {}),
      ...(max !== undefined ? { maxLength: max } : {}),
    });
}
