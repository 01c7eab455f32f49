// Both bins say first, in one line, when the Node running them is older than the packages support; the command still
// runs. Checked through the built bins, with the reported Node version replaced before they load.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SUPPORTED_NODE, unsupportedNodeWarning } from '../../src/cli/unsupportedNodeWarning';

const root = resolve(import.meta.dirname, '../..');
const bins = {
  svc: resolve(root, 'dist/cli.js'),
  'svc-sdk-dev': resolve(root, 'packages/svc-sdk-dev/dist/cli.js'),
};
const built = Object.values(bins).every((bin) => existsSync(bin));

describe('the Node version', () => {
  test('the supported range is both packages’ engines', () => {
    for (const file of ['package.json', 'packages/svc-sdk-dev/package.json'])
      expect(JSON.parse(readFileSync(resolve(root, file), 'utf8')).engines.node, file).toBe(SUPPORTED_NODE);
  });

  test.each([
    ['18.20.4', true],
    ['20.0.0', true],
    ['20.18.3', true],
    ['20.19.0', false],
    ['20.20.2', false],
    ['21.7.3', true],
    ['22.11.0', true],
    ['22.12.0', false],
    ['24.1.0', false],
  ])('Node %s: warned %s', (version, warned) => {
    const warning = unsupportedNodeWarning('svc', version);
    expect(warning !== undefined).toBe(warned);
    if (warning)
      expect(warning).toBe(
        `svc: Node ${version} is older than this package supports (^20.19.0 || >=22.12.0), and some commands fail on it: install Node 20.19 or later.\n`,
      );
  });

  test.runIf(built)(
    'each built bin warns first on an older Node, runs the command all the same, and is silent on this one',
    () => {
      const manifest = resolve(root, 'examples/polls/manifest.json');
      for (const [name, bin] of Object.entries(bins)) {
        const run = (version?: string) =>
          spawnSync(
            process.execPath,
            [
              ...(version
                ? [
                    '--import',
                    `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`,
                  ]
                : []),
              bin,
              'validate',
              manifest,
            ],
            { encoding: 'utf8' },
          );
        const old = run('20.18.0');
        expect(old.status, old.stderr).toBe(0);
        expect(old.stderr.split('\n')[0]).toBe(unsupportedNodeWarning(name, '20.18.0')?.trimEnd());
        expect(old.stdout).toContain('valid');
        const current = run();
        expect(current.status, current.stderr).toBe(0);
        expect(current.stderr).toBe('');
      }
    },
  );
});
