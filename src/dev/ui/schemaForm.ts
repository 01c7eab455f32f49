// biome-ignore-all lint/suspicious/noExplicitAny: a JSON Schema's keywords hold values of any JSON type, read as the form needs them
import { h } from './dom';

type Schema = Record<string, any>;

/** A form generated from a JSON Schema, and how to read its value. */
export interface SchemaForm {
  element: HTMLElement;
  /** The value entered; throws with a sentence naming the field when it cannot be read. */
  read(): unknown;
}

const simple = (s: Schema | undefined) =>
  !!s &&
  (['string', 'number', 'integer', 'boolean'].includes(s.type) || (s.type === 'array' && s.items?.type === 'string'));

/** One input for a simple schema; `name` labels it and names it in errors. */
function field(name: string, schema: Schema, testid: string): { element: HTMLElement; read(): unknown } {
  const label = schema.title ?? name;
  if (Array.isArray(schema.enum)) {
    const select = h(
      'select',
      { 'data-testid': testid },
      ...schema.enum.map((v: unknown) => h('option', { value: String(v) }, String(v))),
    );
    return { element: h('label', {}, `${label} `, select), read: () => select.value };
  }
  if (schema.type === 'boolean') {
    const box = h('input', { type: 'checkbox', 'data-testid': testid });
    return { element: h('label', {}, box, ` ${label}`), read: () => box.checked };
  }
  if (schema.type === 'array') {
    const area = h('textarea', { 'data-testid': testid, placeholder: 'one per line' });
    const read = () =>
      area.value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    return { element: h('label', {}, `${label} (one per line)`, area), read };
  }
  // The description goes below the field, whole: as a placeholder a narrow input cut it mid-word.
  const input = h('input', { 'data-testid': testid, type: schema.type === 'string' ? 'text' : 'number' });
  const read = () => {
    if (schema.type === 'string') return input.value;
    const n = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(n)) throw new Error(`${label} must be a number.`);
    return n;
  };
  const hint = schema.description ? h('span', { class: 'note hint' }, schema.description) : null;
  return { element: h('label', {}, `${label} `, input, hint), read };
}

/**
 * Builds a form for `schema`: fields for an object of simple properties (strings, enums, numbers, booleans, lists of
 * strings) or for one simple value; a JSON editor for anything a form cannot express (nested objects, unions).
 * Optional fields left empty are left out.
 */
export function schemaForm(schema: Schema, testid: string): SchemaForm {
  const properties: Record<string, Schema> | undefined =
    schema?.type === 'object' ? (schema.properties ?? {}) : undefined;
  if (properties && Object.values(properties).every(simple)) {
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries(properties).map(([name, s]) => ({ name, s, ...field(name, s, `${testid}-${name}`) }));
    return {
      element: h('div', {}, ...fields.map((f) => f.element)),
      read: () => {
        const value: Record<string, unknown> = {};
        for (const f of fields) {
          const v = f.read();
          const empty = v === '' || (Array.isArray(v) && v.length === 0);
          if (!empty || required.has(f.name)) value[f.name] = v;
        }
        return value;
      },
    };
  }
  if (simple(schema)) return field('value', schema, testid);
  const area = h('textarea', { 'data-testid': `${testid}-json` }, schema?.type === 'object' ? '{}' : '');
  return {
    element: h('div', {}, h('div', { class: 'note' }, 'This schema needs JSON:'), area),
    read: () => {
      try {
        return JSON.parse(area.value);
      } catch (error) {
        throw new Error(`the JSON does not parse: ${(error as Error).message}`);
      }
    },
  };
}
