// biome-ignore-all lint/suspicious/noExplicitAny: a JSON Schema's keywords hold values of any JSON type, read as the form needs them
import { type Signal, signal } from '@preact/signals';
import type { JSX } from 'preact';

type Schema = Record<string, any>;

/** A form generated from a JSON Schema: its fields (kept while the panel is not shown), and how to read its value. */
export interface SchemaForm {
  Form(): JSX.Element;
  /**
   * The value entered; throws with a sentence naming the field when it cannot be read, and marks that field refused.
   * An optional field left empty is left out.
   */
  read(): unknown;
  /**
   * The fields marked refused (`aria-invalid`, described by the message saying why): `true` every one, a list of
   * names those the refusal is about, `false` none.
   */
  invalid: Signal<boolean | string[]>;
  /** What is wrong with each refused field, by its name: shown under it, and what describes it. */
  messages: Signal<Record<string, string>>;
}

/**
 * How a field is drawn: refused or not, and where the message saying why is (its `aria-describedby`): its own
 * `error`, shown under it, or else the element `errorId` names.
 */
interface FieldProps {
  invalid: boolean;
  errorId: string | undefined;
  error?: string | undefined;
}

interface Field {
  name: string;
  Field(props: FieldProps): JSX.Element;
  /** The value, or `undefined` for a field left empty that has no empty value of its type (a number). */
  read(): unknown;
}

/**
 * What a field says besides its value: refused (and why: its own message when it has one), required, and its hint,
 * for a screen reader. `testid` is the field's, whose `-error` element holds its own message.
 */
function described({ invalid, errorId, error }: FieldProps, required: boolean, hintId?: string, testid?: string) {
  const why = error && testid ? `${testid}-error` : errorId;
  const by = [invalid ? why : undefined, hintId].filter(Boolean).join(' ');
  return { 'aria-invalid': invalid, 'aria-describedby': by || undefined, 'aria-required': required || undefined };
}

/** A refused field's own message, under it (what {@link described} points to). */
const FieldError = ({ testid, props }: { testid: string; props: FieldProps }) =>
  props.invalid && props.error ? (
    <span class="err hint" id={`${testid}-error`} data-testid={`${testid}-error`}>
      {props.error}
    </span>
  ) : null;

/** A field's hint: the schema's description, and its default when it has one. */
function hintOf(schema: Schema): string | undefined {
  const parts = [
    schema.description,
    // Its own keys only: a format named `constructor` or `toString` is no entry of the table.
    typeof schema.format === 'string' && Object.hasOwn(FORMATS, schema.format) ? FORMATS[schema.format] : undefined,
    boundsOf(schema),
    schema.default === undefined ? undefined : `Default: ${JSON.stringify(schema.default)}.`,
  ].filter(Boolean);
  // A description without a stop ("The day") would run into the sentence after it.
  if (parts.length > 1 && schema.description && !/[.!?。:;…]\s*$/.test(schema.description)) parts[0] += '.';
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** A number's bounds in words ("From 1 to 5."), said before an answer out of them is refused. */
function boundsOf(schema: Schema): string | undefined {
  if (schema.type !== 'number' && schema.type !== 'integer') return undefined;
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const [min, max] = [number(schema.minimum), number(schema.maximum)];
  const [above, below] = [number(schema.exclusiveMinimum), number(schema.exclusiveMaximum)];
  const said = [
    min !== undefined && max !== undefined ? `From ${min} to ${max}.` : undefined,
    min !== undefined && max === undefined ? `At least ${min}.` : undefined,
    max !== undefined && min === undefined ? `At most ${max}.` : undefined,
    above === undefined ? undefined : `More than ${above}.`,
    below === undefined ? undefined : `Less than ${below}.`,
  ].filter(Boolean);
  return said.length ? said.join(' ') : undefined;
}

/** How to write a value of a string format the answer is checked against (a text box says nothing of it). */
const FORMATS: Record<string, string> = {
  date: 'A date: YYYY-MM-DD, such as 2026-12-24.',
  'date-time': 'A date and time: YYYY-MM-DDTHH:MM:SS with a zone, such as 2026-12-24T18:00:00Z.',
  time: 'A time: HH:MM:SS with a zone, such as 18:00:00Z.',
  duration: 'A duration: ISO 8601, such as P3D or PT2H30M.',
  email: 'An email address.',
  uri: 'An address with its scheme, such as https://example.com/page.',
  uuid: 'A UUID, such as 123e4567-e89b-12d3-a456-426614174000.',
};

/** The hint under a field, which describes it (see {@link hintOf}). */
const Hint = ({ id, text }: { id: string | undefined; text: string | undefined }) =>
  id ? (
    <span class="note hint" id={id} dir="auto">
      {text}
    </span>
  ) : null;

/** A required field's label says so in words, as the schema does. */
const labelOf = (label: string, required: boolean) => (required ? `${label} (required)` : label);

const simple = (s: Schema | undefined) =>
  !!s &&
  (['string', 'number', 'integer', 'boolean'].includes(s.type) ||
    (s.type === 'array' && s.items?.type === 'string') ||
    // A choice among plain values, with or without a type: a select.
    (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v: unknown) => v === null || typeof v !== 'object')));

const text = (event: Event) => (event.currentTarget as HTMLInputElement).value;

/**
 * One input for a simple schema; `name` labels it and names it in errors. `choose`: a required choice with no default
 * starts unset, "(choose one)", so a person answers it (an elicit sheet); else it starts at its first value, so a
 * developer can invoke at once.
 */
function field(name: string, schema: Schema, testid: string, required: boolean, choose = false): Field {
  const label = schema.title ?? name;
  const hint = hintOf(schema);
  const hintId = hint ? `${testid}-hint` : undefined;
  if (Array.isArray(schema.enum)) {
    // The option's index: the value keeps its JSON type (an enum of numbers reads as numbers). An optional field starts
    // unset, so the action's path without it can be tried; a required one starts at its default, else its first value.
    const preset = schema.enum.findIndex((v: unknown) => JSON.stringify(v) === JSON.stringify(schema.default));
    const unset = !required || (choose && preset < 0);
    const index = signal(unset ? '' : String(Math.max(0, preset)));
    const Field = (props: FieldProps) => (
      <div>
        <label dir="auto">
          {`${labelOf(label, required)} `}
          <select
            data-testid={testid}
            {...described(props, required, hintId, testid)}
            value={index.value}
            onChange={(e) => (index.value = text(e))}
          >
            {unset ? <option value="">{required ? '(choose one)' : '(not set)'}</option> : null}
            {schema.enum.map((v: unknown, i: number) => (
              <option key={String(i)} value={String(i)}>
                {typeof v === 'string' ? v : JSON.stringify(v)}
              </option>
            ))}
          </select>
        </label>
        <Hint id={hintId} text={hint} />
        <FieldError testid={testid} props={props} />
      </div>
    );
    return { name, Field, read: () => (index.value === '' ? undefined : schema.enum[Number(index.value)]) };
  }
  if (schema.type === 'boolean') {
    const checked = signal(schema.default === true);
    // Never marked required: a checkbox always has a value, ticked or not.
    const Field = (props: FieldProps) => (
      <div>
        <label dir="auto">
          <input
            type="checkbox"
            data-testid={testid}
            {...described(props, false, hintId, testid)}
            checked={checked.value}
            onChange={(e) => (checked.value = (e.currentTarget as HTMLInputElement).checked)}
          />
          {` ${label}`}
        </label>
        <Hint id={hintId} text={hint} />
        <FieldError testid={testid} props={props} />
      </div>
    );
    return { name, Field, read: () => checked.value };
  }
  return textField(name, labelOf(label, required), schema, testid, required);
}

/** A list of strings (one per line), a string or a number. */
function textField(name: string, label: string, schema: Schema, testid: string, required: boolean): Field {
  const value = signal('');
  if (schema.type === 'array') {
    const Field = (props: FieldProps) => (
      <label dir="auto">
        {`${label} (one per line)`}
        <textarea
          data-testid={testid}
          {...described(props, required, undefined, testid)}
          placeholder="one per line"
          value={value.value}
          onInput={(e) => (value.value = text(e))}
        />
        <FieldError testid={testid} props={props} />
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
    // An empty text is no date, email or address, nor a text of a least length: left out, so that a required one is
    // said to be missing (recheck48b F5: "it has 0"); where "" is an answer the schema allows, it is sent.
    if (schema.type === 'string')
      return value.value === '' && (typeof schema.format === 'string' || (schema.minLength ?? 0) > 0)
        ? undefined
        : value.value;
    // Empty is no number: the field is left out, and the schema alone says whether it may be.
    if (value.value.trim() === '') return undefined;
    const n = Number(value.value);
    if (!Number.isFinite(n)) throw new Error(`${label} must be a number.`);
    return n;
  };
  const hint = hintOf(schema);
  const hintId = hint ? `${testid}-hint` : undefined;
  const inputProps = (props: FieldProps) => ({
    'data-testid': testid,
    ...described(props, required, hintId, testid),
    value: value.value,
    onInput: (e: Event) => {
      value.value = text(e);
    },
  });
  // The description goes below the field, whole (as a placeholder a narrow input cut it mid-word), and outside the
  // label: it describes the field, it does not name it.
  const Field = (props: FieldProps) => (
    <div>
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the input is the label's child, in either branch */}
      <label dir="auto">
        {`${label} `}
        {schema.type === 'string' ? (
          <input type="text" {...inputProps(props)} />
        ) : (
          <input type="number" {...inputProps(props)} />
        )}
      </label>
      <Hint id={hintId} text={hint} />
      <FieldError testid={testid} props={props} />
    </div>
  );
  return { name, Field, read };
}

/** Reads a field; one that cannot be read is marked refused, alone, with why. */
function readField(f: Field, invalid: Signal<boolean | string[]>, messages: Signal<Record<string, string>>): unknown {
  try {
    return f.read();
  } catch (error) {
    invalid.value = [f.name];
    messages.value = { [f.name]: (error as Error).message };
    throw error;
  }
}

/**
 * What a validator's issues say of each field (`$.name…` is `name`), as a sentence each field shows under it and is
 * described by: `$.note must be…` becomes `note must be…`, and two issues of one field are joined.
 */
export function fieldMessages(issues: { path: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path, message } of issues) {
    const name = /^\$\.([^.[]+)/.exec(path)?.[1];
    if (!name) continue;
    const text = message.replace(/^\$\./, '');
    out[name] = out[name] ? `${out[name]}; ${text}` : text;
  }
  return out;
}

/**
 * The fields a validator's issues are about (`$.name…` is `name`), to mark them refused; `true`, every field, when
 * one is about the value as a whole.
 */
export function refusedFields(paths: string[]): boolean | string[] {
  const names = paths.map((path) => /^\$\.([^.[]+)/.exec(path)?.[1]);
  return names.every(Boolean) ? (names as string[]) : true;
}

const isInvalid = (invalid: boolean | string[], name: string) =>
  invalid === true || (Array.isArray(invalid) && invalid.includes(name));

/**
 * Builds a form for `schema`: for an object, a field for each simple property (strings, enums, numbers, booleans,
 * lists of strings) and a JSON box for each other one (nested objects, lists of objects, unions), started from the
 * required properties it holds; a field for one simple value; a JSON editor, so started, for anything else.
 * Optional fields left empty are left out; required ones are marked so. `errorId` is the element that says why an
 * answer was refused: a refused field is described by it.
 */
export function createSchemaForm(
  schema: Schema,
  testid: string,
  errorId?: string,
  { choose = false }: { choose?: boolean } = {},
): SchemaForm {
  const invalid = signal<boolean | string[]>(false);
  const messages = signal<Record<string, string>>({});
  const properties: Record<string, Schema> | undefined =
    schema?.type === 'object' ? (schema.properties ?? {}) : undefined;
  if (properties) {
    const required = new Set<string>(schema.required ?? []);
    // A field for each simple property, a JSON box for each other one (a nested object, a list of objects, a union):
    // one such property leaves the others their fields.
    const fields = Object.entries(properties).map(([name, s]) =>
      simple(s)
        ? field(name, s, `${testid}-${name}`, required.has(name), choose)
        : jsonField(name, s, `${testid}-${name}`, required.has(name)),
    );
    const read = () => {
      const value: Record<string, unknown> = {};
      for (const f of fields) {
        const v = readField(f, invalid, messages);
        if (v === undefined) continue;
        const empty = v === '' || (Array.isArray(v) && v.length === 0);
        if (!empty || required.has(f.name)) value[f.name] = v;
      }
      return value;
    };
    const Form = () => (
      <div>
        {fields.map(({ name, Field }) => (
          <Field key={name} invalid={isInvalid(invalid.value, name)} errorId={errorId} error={messages.value[name]} />
        ))}
      </div>
    );
    return { Form, read, invalid, messages };
  }
  if (simple(schema)) {
    // One answer, not a field of an object: labelled so, where the schema has no title.
    const f = field('value', { title: 'Answer', ...schema }, testid, false, choose);
    const Form = () => (
      <f.Field invalid={isInvalid(invalid.value, 'value')} errorId={errorId} error={messages.value.value} />
    );
    return { Form, read: () => readField(f, invalid, messages), invalid, messages };
  }
  return { ...jsonForm(schema, testid, invalid, errorId), messages };
}

/**
 * A value of `schema` to start a JSON box from: an object holds its required properties, each started the same way;
 * anything else is the empty value of its type.
 */
function skeleton(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || (!type && schema.properties)) {
    const out: Record<string, unknown> = {};
    for (const name of schema.required ?? []) out[name] = skeleton(schema.properties?.[name], depth + 1);
    return out;
  }
  return ({ array: [], string: '', number: 0, integer: 0, boolean: false } as Record<string, unknown>)[type] ?? null;
}

/** A property a field cannot express, as JSON: started from its skeleton when required, left out when empty. */
function jsonField(name: string, schema: Schema, testid: string, required: boolean): Field {
  const start = required ? skeleton(schema) : null;
  const value = signal(start === null ? '' : JSON.stringify(start));
  const label = labelOf(schema.title ?? name, required);
  const hintId = `${testid}-hint`;
  const Field = (props: FieldProps) => (
    <div>
      <label dir="auto">
        {`${label} (JSON)`}
        <textarea
          data-testid={testid}
          {...described(props, required, hintId, testid)}
          value={value.value}
          onInput={(e) => (value.value = text(e))}
        />
      </label>
      <span class="note hint" id={hintId}>
        {`${schema.description ? `${schema.description} ` : ''}${schemaLine(schema)}`}
      </span>
      <FieldError testid={testid} props={props} />
    </div>
  );
  const read = () => {
    if (value.value.trim() === '') return undefined;
    try {
      return JSON.parse(value.value);
    } catch (error) {
      throw new Error(`${label} is not JSON: ${(error as Error).message}`);
    }
  };
  return { name, Field, read };
}

/**
 * What a JSON box takes, in a line: its type and, for an object or a list of objects, the object's properties
 * (required ones marked).
 */
function schemaLine(schema: Schema): string {
  const shape: Schema | undefined = schema.type === 'array' ? schema.items : schema;
  const names = shape?.type === 'object' && shape.properties ? Object.keys(shape.properties) : undefined;
  const required = new Set<string>(shape?.required ?? []);
  const listed = names?.map((n) => (required.has(n) ? `${n}*` : n));
  const type =
    schema.type ?? (schema.oneOf ? 'one of several shapes' : schema.anyOf ? 'any of several shapes' : 'JSON');
  return `${Array.isArray(type) ? type.join(' or ') : type}${listed ? ` of ${listed.join(', ')} (* required)` : ''}`;
}

/** A JSON editor, for a schema a form cannot express. */
function jsonForm(
  schema: Schema,
  testid: string,
  invalid: Signal<boolean | string[]>,
  errorId: string | undefined,
): Omit<SchemaForm, 'messages'> {
  const start = skeleton(schema);
  const value = signal(start === null ? '' : JSON.stringify(start, null, 2));
  const Form = () => (
    <div>
      <label dir="auto">
        <span class="note">This schema needs JSON:</span>
        <textarea
          data-testid={`${testid}-json`}
          {...described({ invalid: invalid.value !== false, errorId }, false)}
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
      invalid.value = true;
      throw new Error(`the JSON does not parse: ${(error as Error).message}`);
    }
  };
  return { Form, read, invalid };
}
