import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';
import { schemaToType } from '../../src/cli/schemaToType';
import { type Json, validManifest } from '../manifest/fixtures';
import { runSvc, tempProject } from './runInProcess';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, '.tmp', 'svc-types');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pollManifest = () => {
  const m: Json = validManifest();
  m.actions = [
    {
      ...m.actions[0],
      name: 'create_poll',
      title: 'Create a poll',
      input_schema: {
        type: 'object',
        properties: {
          question: { type: 'string', description: 'What to ask.' },
          options: { type: 'array', items: { type: 'string' } },
          closes: { enum: ['hour', 'day'] },
        },
        required: ['question', 'options'],
        additionalProperties: false,
      },
      // Its handlers below return what they like: the output's own test declares one.
      output_schema: undefined,
    },
  ];
  return m;
};

function typeErrors(files: Record<string, string>): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const names = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  const program = ts.createProgram(names, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    ignoreDeprecations: '6.0',
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file?.fileName.split('/').pop()}:${d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

describe('svc types', () => {
  test('writes svc-actions.d.ts with each action input from its input_schema', async () => {
    const project = tempProject({ 'manifest.json': pollManifest() });
    const run = await runSvc(['types'], project);
    expect(run).toMatchObject({
      code: 0,
      stdout: 'wrote svc-actions.d.ts (1 action); include it in your tsconfig.json\n',
    });
    const text = readFileSync(join(project, 'svc-actions.d.ts'), 'utf8');
    expect(text).toContain("declare module 'svc-sdk'");
    expect(text).toContain('create_poll: {');
    expect(text).toContain('question: string;');
    expect(text).toContain('options: string[];');
    expect(text).toContain('closes?: "hour" | "day";');
  });

  test('makes handle() refuse an undeclared name and type the input (checked by the compiler)', async () => {
    const project = tempProject({ 'manifest.json': pollManifest() });
    await runSvc(['types'], project);
    const generated = readFileSync(join(project, 'svc-actions.d.ts'), 'utf8');
    const app = [
      "import { svc } from 'svc-sdk';",
      "svc.actions.handle('create_poll', async (input) => {",
      '  const question: string = input.question;',
      '  const options: string[] = input.options;',
      '  return { question, options, closes: input.closes };',
      '});',
      '// @ts-expect-error: not a declared action',
      "svc.actions.handle('create_pol', async () => ({}));",
      '// @ts-expect-error: no such input field',
      "svc.actions.handle('create_poll', async (input) => input.questoin);",
      '// @ts-expect-error: options are strings',
      "svc.actions.handle('create_poll', async (input) => { const n: number[] = input.options; return n; });",
    ].join('\n');
    expect(typeErrors({ 'svc-actions.d.ts': generated, 'app.ts': app })).toEqual([]);
  });

  test("types the mock's host.svc as the app's svc: one Svc, which the generated file augments", async () => {
    const project = tempProject({ 'manifest.json': pollManifest() });
    await runSvc(['types'], project);
    const generated = readFileSync(join(project, 'svc-actions.d.ts'), 'utf8');
    const test = [
      "import type { Svc } from 'svc-sdk';",
      "import { createMockHost } from 'svc-sdk/mock';",
      'declare const manifest: Parameters<typeof createMockHost>[0]["manifest"];',
      'const host = createMockHost({ manifest });',
      'const same: Svc = host.svc;',
      "host.svc.actions.handle('create_poll', async (input) => ({ question: input.question }));",
      '// @ts-expect-error: not a declared action',
      "host.svc.actions.handle('create_pol', async () => ({}));",
      '// @ts-expect-error: no such input field',
      "host.svc.actions.handle('create_poll', async (input) => input.questoin);",
      'export { same };',
    ].join('\n');
    expect(typeErrors({ 'svc-actions.d.ts': generated, 'mock.test.ts': test })).toEqual([]);
  });

  test("types a handler's output from the output_schema, and the mock's invokeAction by name, input and output", async () => {
    const manifest = pollManifest();
    manifest.actions[0].output_schema = {
      type: 'object',
      properties: { poll_id: { type: 'string' } },
      required: ['poll_id'],
      additionalProperties: false,
    };
    const project = tempProject({ 'manifest.json': manifest });
    await runSvc(['types'], project);
    const generated = readFileSync(join(project, 'svc-actions.d.ts'), 'utf8');
    expect(generated).toContain(
      '  interface SvcActionOutputs {\n    /** Create a poll */\n    create_poll: {\n      poll_id: string;\n    };\n  }',
    );
    const test = [
      "import { createMockHost } from 'svc-sdk/mock';",
      'declare const manifest: Parameters<typeof createMockHost>[0]["manifest"];',
      'const host = createMockHost({ manifest });',
      "host.svc.actions.handle('create_poll', async () => ({ poll_id: 'p1' }));",
      '// @ts-expect-error: the output_schema says poll_id',
      "host.svc.actions.handle('create_poll', async () => ({ wrong: 1 }));",
      '// @ts-expect-error: synchronous too',
      "host.svc.actions.handle('create_poll', () => 42);",
      "const out = await host.invokeAction('create_poll', { question: 'Lunch?', options: ['a', 'b'] });",
      'const id: string = out.poll_id;',
      '// @ts-expect-error: not a declared action',
      "await host.invokeAction('create_pol', {});",
      '// @ts-expect-error: the input is typed',
      "await host.invokeAction('create_poll', { question: 1 });",
      "await host.invokeAction('create_poll', { question: 1 } as never); // a wrong input on purpose",
      'export { id };',
    ].join('\n');
    expect(typeErrors({ 'svc-actions.d.ts': generated, 'outputs.test.ts': test })).toEqual([]);
  });

  test('without generated types, handle() takes any name and an untyped input', () => {
    const app =
      "import { svc } from 'svc-sdk';\nsvc.actions.handle('anything', async (input) => input.whatever);\nexport {};\n";
    expect(typeErrors({ 'app.ts': app })).toEqual([]);
  });

  test("writes over its own file again, never over a file of the developer's", async () => {
    const project = tempProject({ 'manifest.json': pollManifest() });
    expect((await runSvc(['types'], project)).code).toBe(0);
    expect((await runSvc(['types'], project)).code).toBe(0);
    writeFileSync(join(project, 'svc-actions.d.ts'), '// my own declarations\nexport {};\n');
    const run = await runSvc(['types'], project);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'svc types: svc-actions.d.ts exists and was not written by svc types; pass --out <another file>, or move it away and run svc types again\n',
    );
    expect(readFileSync(join(project, 'svc-actions.d.ts'), 'utf8')).toBe('// my own declarations\nexport {};\n');
    expect((await runSvc(['types', '--out', 'types/svc-actions.d.ts'], project)).code).toBe(0);
  });

  test('refuses an invalid manifest, naming the problems', async () => {
    const m = pollManifest();
    m.actions[0].input_schema.additionalProperties = true;
    const run = await runSvc(['types'], tempProject({ 'manifest.json': m }));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/additionalProperties/);
  });
});

describe('schemaToType', () => {
  test.each([
    [{ type: 'integer' }, 'number'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ const: 3 }, '3'],
    [{ anyOf: [{ type: 'string' }, { type: 'boolean' }] }, 'string | boolean'],
    [{ type: 'array', prefixItems: [{ type: 'string' }], items: false }, '[string]'],
    [{ $defs: { n: { type: 'number' } }, $ref: '#/$defs/n' }, 'number'],
    [{ $defs: { n: { $anchor: 'n', type: 'number' } }, $ref: '#n' }, 'number'],
    [{ $defs: { n: { $id: 'urn:example:n', type: 'boolean' } }, $ref: 'urn:example:n' }, 'boolean'],
    [{ type: 'object', properties: {}, additionalProperties: false }, 'Record<string, never>'],
    [
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } },
      '{\n  a?: string;\n  [key: string]: number | string | undefined;\n}',
    ],
    [
      { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } },
      '{\n  [key: string]: number[];\n}',
    ],
    [{ type: 'object', properties: { 'a-b': { type: 'string' } }, required: ['a-b'] }, '{\n  "a-b": string;\n}'],
  ])('%j → %s', (schema, type) => {
    expect(schemaToType(schema as Record<string, unknown>)).toBe(type);
  });
});
