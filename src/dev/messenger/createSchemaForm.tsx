// biome-ignore-all lint/suspicious/noExplicitAny: a JSON Schema's keywords hold values of any JSON type, read as the form needs them
import { type Signal, signal } from '@preact/signals';
import type { JSX } from 'preact';

type Schema = Record<string, any>;

/** A form generated from a JSON Schema: its fields (kept while the panel is not shown), and how to read its value. */
export interface SchemaForm {
  Form(): JSX.Element;
  /** The value entered; throws with a sentence naming the field when it cannot be read. */
  read(): unknown;
  /** Marks the fields as refused (`aria-invalid`), or not. */
  invalid: Signal<boolean>;
}

interface Field {
  name: string;
  Field(props: { invalid: boolean }): JSX.Element;
  read(): unknown;
}

const simple = (s: Schema | undefined) =>
  !!s &&
  (['string', 'number', 'integer', 'boolean'].includes(s.type) || (s.type === 'array' && s.items?.type === 'string'));

const text = (event: Event) => (event.currentTarget as HTMLInputElement).value;

/** One input for a simple schema; `name` labels it and names it in errors. */
function field(name: string, schema: Schema, testid: string): Field {
  const label = schema.title ?? name;
  if (Array.isArray(schema.enum)) {
    const value = signal(String(schema.enum[0] ?? ''));
    const Field = ({ invalid }: { invalid: boolean }) => (
      <label>
        {`${label} `}
        <select
          data-testid={testid}
          aria-invalid={invalid}
          value={value.value}
          onChange={(e) => (value.value = text(e))}
        >
          {schema.enum.map((v: unknown) => (
            <option key={String(v)} value={String(v)}>
              {String(v)}
            </option>
          ))}
        </select>
      </label>
    );
    return { name, Field, read: () => value.value };
  }
  if (schema.type === 'boolean') {
    const checked = signal(false);
    const Field = ({ invalid }: { invalid: boolean }) => (
      <label>
        <input
          type="checkbox"
          data-testid={testid}
          aria-invalid={invalid}
          checked={checked.value}
          onChange={(e) => (checked.value = (e.currentTarget as HTMLInputElement).checked)}
        />
        {` ${label}`}
      </label>
    );
    return { name, Field, read: () => checked.value };
  }
  return textField(name, label, schema, testid);
}

/** A list of strings (one per line), a string or a number. */
function textField(name: string, label: string, schema: Schema, testid: string): Field {
  const value = signal('');
  if (schema.type === 'array') {
    const Field = ({ invalid }: { invalid: boolean }) => (
      <label>
        {`${label} (one per line)`}
        <textarea
          data-testid={testid}
          aria-invalid={invalid}
          placeholder="one per line"
          value={value.value}
          onInput={(e) => (value.value = text(e))}
        />
      </label>
    );
    const read = () =>
      value.value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    return { name, Field, read };
  }
  const read = () => {
    if (schema.type === 'string') return value.value;
    const n = Number(value.value);
    if (value.value.trim() === '' || !Number.isFinite(n)) throw new Error(`${label} must be a number.`);
    return n;
  };
  const inputProps = (invalid: boolean) => ({
    'data-testid': testid,
    'aria-invalid': invalid,
    value: value.value,
    onInput: (e: Event) => {
      value.value = text(e);
    },
  });
  // The description goes below the field, whole: as a placeholder a narrow input cut it mid-word.
  const Field = ({ invalid }: { invalid: boolean }) => (
    // biome-ignore lint/a11y/noLabelWithoutControl: the input is the label's child, in either branch
    <label>
      {`${label} `}
      {schema.type === 'string' ? (
        <input type="text" {...inputProps(invalid)} />
      ) : (
        <input type="number" {...inputProps(invalid)} />
      )}
      {schema.description ? <span class="note hint">{schema.description}</span> : null}
    </label>
  );
  return { name, Field, read };
}

/**
 * Builds a form for `schema`: fields for an object of simple properties (strings, enums, numbers, booleans, lists of
 * strings) or for one simple value; a JSON editor for anything a form cannot express (nested objects, unions).
 * Optional fields left empty are left out.
 */
export function createSchemaForm(schema: Schema, testid: string): SchemaForm {
  const invalid = signal(false);
  const properties: Record<string, Schema> | undefined =
    schema?.type === 'object' ? (schema.properties ?? {}) : undefined;
  if (properties && Object.values(properties).every(simple)) {
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries(properties).map(([name, s]) => field(name, s, `${testid}-${name}`));
    const read = () => {
      const value: Record<string, unknown> = {};
      for (const f of fields) {
        const v = f.read();
        const empty = v === '' || (Array.isArray(v) && v.length === 0);
        if (!empty || required.has(f.name)) value[f.name] = v;
      }
      return value;
    };
    const Form = () => (
      <div>
        {fields.map(({ name, Field }) => (
          <Field key={name} invalid={invalid.value} />
        ))}
      </div>
    );
    return { Form, read, invalid };
  }
  if (simple(schema)) {
    const { Field, read } = field('value', schema, testid);
    return { Form: () => <Field invalid={invalid.value} />, read, invalid };
  }
  return jsonForm(schema, testid, invalid);
}

/** A JSON editor, for a schema a form cannot express. */
function jsonForm(schema: Schema, testid: string, invalid: Signal<boolean>): SchemaForm {
  const value = signal(schema?.type === 'object' ? '{}' : '');
  const Form = () => (
    <div>
      <label>
        <span class="note">This schema needs JSON:</span>
        <textarea
          data-testid={`${testid}-json`}
          aria-invalid={invalid.value}
          value={value.value}
          onInput={(e) => (value.value = text(e))}
        />
      </label>
    </div>
  );
  const read = () => {
    try {
      return JSON.parse(value.value);
    } catch (error) {
      throw new Error(`the JSON does not parse: ${(error as Error).message}`);
    }
  };
  return { Form, read, invalid };
}
