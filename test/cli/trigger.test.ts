// `svc trigger`, through the built bin, against real backends on loopback: one built with svc-sdk/server's
// createWebhookHandler (also behind https, with a certificate of the test's own), and plain node:http ones that
// answer slowly, 500, with a redirect or not at all. examples/backend-python gets every event too
// (test/dev/backendPython.test.ts).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, WEBHOOK_EVENTS, type WebhookEvent } from '../../src/server';

const bin = resolve('dist/cli.js');
const SECRET = 'whsec_trigger_test_4f1d2c';
const TOKEN = `eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImF1ZCI6InN2YyJ9.${'c2lnbmF0dXJl'.repeat(7)}`;
const dir = mkdtempSync(join(tmpdir(), 'svc-trigger-'));
writeFileSync(
  join(dir, 'backend.env'),
  `SVC_API_BASE=http://127.0.0.1:1/v1\nSVC_MINI_APP_ID=com.example.trigger\nSVC_APP_VERSION=2.3.4\nSVC_SIGNING_SECRET=${SECRET}\n`,
);
writeFileSync(join(dir, 'secret.txt'), `${SECRET}\n`);
writeFileSync(join(dir, 'wrong.txt'), 'whsec_not_this_one\n');
writeFileSync(join(dir, 'no-secret.env'), 'SVC_MINI_APP_ID=x\n');

const received: WebhookEvent[] = [];
let requests = 0;
/** Each request's signing timestamp, as the handled server got it. */
const stamps: string[] = [];
const servers: Server[] = [];
let handled = '';
let slow = '';
let failing = '';
let echoing = '';
let redirecting = '';
let verbose = '';
let secure = '';
let drawing = '';

/** Listens on a loopback port; resolves the URL of `path` on it. */
async function listen(server: Server, path: string): Promise<string> {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
}

beforeAll(async () => {
  const handle = createWebhookHandler({
    secrets: [SECRET],
    on: Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, (event: WebhookEvent) => void received.push(event)])),
  });
  handled = await listen(
    createServer((req, res) => {
      requests++;
      stamps.push(String(req.headers['x-svc-request-timestamp']));
      void handle.node(req, res);
    }),
    '/svc/webhooks',
  );
  // Acknowledges, but after the platform's 5 s: the delivery counts as failed.
  slow = await listen(
    createServer((_req, res) => void setTimeout(() => res.writeHead(200).end('{"ok":true}'), 5200)),
    '/',
  );
  // A redirect to the verifying backend: the platform posts to the URL it was given, so it is not followed.
  redirecting = await listen(
    createServer((_req, res) => void res.writeHead(307, { location: handled }).end()),
    '/old-hooks',
  );
  // A 2xx with a body of 5 MB, sent in 1 KB chunks.
  verbose = await listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 5 * 1024; i++) res.write('x'.repeat(1024));
      res.end();
    }),
    '/',
  );
  // The same verifying backend behind https, its certificate trusted through NODE_EXTRA_CA_CERTS.
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
      ...['-keyout', join(dir, 'tls-key.pem'), '-out', join(dir, 'tls-cert.pem'), '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  const tls = { key: readFileSync(join(dir, 'tls-key.pem')), cert: readFileSync(join(dir, 'tls-cert.pem')) };
  secure = (
    await listen(
      createHttpsServer(tls, (req, res) => void handle.node(req, res)),
      '/svc/webhooks',
    )
  ).replace(/^http:/, 'https:');
  // A backend whose answer draws on the terminal: erases the status line, writes a green "200" of its own, retitles
  // the window, reverses the rest of the line.
  drawing = await listen(
    createServer(
      (_req, res) =>
        void res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(
            '{"ok":true}\n\u001b[2K\u001b[1A\u001b[32m<-- 200 OK in 3 ms\u001b[0m \u001b]0;pwned\u0007 \u202eRLO\r\n\tend',
          ),
    ),
    '/',
  );
  failing = await listen(
    createServer(
      (_req, res) => void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"db down"}'),
    ),
    '/',
  );
  // A backend under development whose error answer echoes the secret it holds and the token it was given.
  echoing = await listen(
    createServer(
      (_req, res) =>
        void res.writeHead(500, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: `signature mismatch; secret in use: ${SECRET}`,
            auth: `Bearer ${TOKEN}`,
            token: TOKEN,
          }),
        ),
    ),
    '/',
  );
});
afterAll(() => Promise.all(servers.map((s) => new Promise((ok) => s.close(ok)))));

/** Runs the built bin in `dir`: its exit code and output. */
function trigger(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The test's own certificate authority, for the https backend; Node adds it to the ones it trusts.
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'tls-cert.pem') };
  return new Promise((done) => {
    execFile(process.execPath, [bin, 'trigger', ...args], { cwd: dir, env }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe.runIf(existsSync(bin))('svc trigger', () => {
  it('sends a signed example with --set overrides that the backend verifies, and prints status, time and body', async () => {
    const run = await trigger(
      'user.deprovisioned',
      '--to',
      handled,
      '--backend-env',
      'backend.env',
      '--set',
      'app_user_id=au-bob',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^POST ${handled}  user.deprovisioned\n`));
    expect(run.stdout).toMatch(/\n<-- 200 OK in \d+ ms\n\{"ok":true\}\n$/);
    const event = received.at(-1)!;
    expect(event).toMatchObject({
      event: 'user.deprovisioned',
      app_user_id: 'au-bob',
      mini_app_id: 'com.example.trigger',
    });
    // A fresh occurred_at, not the example's.
    expect(Date.now() - Date.parse(event.occurred_at)).toBeLessThan(60_000);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it("names the version of the backend's env file in the events that carry one, unless --set says another", async () => {
    for (const event of ['installation.created', 'app.revoked'] as const) {
      const run = await trigger(event, '--to', handled, '--backend-env', 'backend.env');
      expect(run.code, run.stderr).toBe(0);
      expect(received.at(-1)).toMatchObject({ event, version: '2.3.4', mini_app_id: 'com.example.trigger' });
    }
    const set = await trigger('app.revoked', '--to', handled, '--backend-env', 'backend.env', '--set', 'version=3.0.0');
    expect(set.code, set.stderr).toBe(0);
    expect(received.at(-1)).toMatchObject({ version: '3.0.0' });
    expect((await trigger('scope.granted', '--to', handled, '--backend-env', 'backend.env')).code).toBe(0);
    expect(received.at(-1)).not.toHaveProperty('version');
  });

  it('with --again, sends the same body a second time, freshly signed, as a retry: a deduping backend acknowledges it unrun', async () => {
    const before = received.length;
    const run = await trigger('scope.granted', '--to', handled, '--backend-env', 'backend.env', '--again');
    expect(run.code, run.stderr).toBe(0);
    const [first, second] = run.stdout.split(/^(?=POST )/m);
    expect(first).toMatch(/\n<-- 200 OK in \d+ ms\n\{"ok":true\}\n$/);
    expect(second).toMatch(/^POST .*scope\.granted {2}\(again: the same body, a fresh timestamp and signature\)\n/);
    expect(second).toMatch(/\n<-- 200 OK in \d+ ms\n\{"ok":true,"duplicate":true\}\n$/);
    // The same bytes both times; the handler ran once.
    expect(first!.split('\n<--')[0]!.split('\n').slice(1).join('\n')).toBe(
      second!.split('\n<--')[0]!.split('\n').slice(1).join('\n'),
    );
    expect(received.length - before).toBe(1);
    // Signed anew: a later second, as the platform's retry (a second or more later) always is, so a backend that
    // refuses a signature it has seen takes it as the retry it is.
    const [one, two] = stamps.slice(-2).map(Number);
    expect(two).toBeGreaterThan(one!);
  });

  it('sends every event with --secret-file', async () => {
    for (const event of WEBHOOK_EVENTS) {
      const run = await trigger(event, '--to', handled, '--secret-file', 'secret.txt');
      expect(run.code, run.stderr).toBe(0);
      expect(received.at(-1)!.event).toBe(event);
      // Nothing named the app: said, since a backend that checks the id refuses the example's.
      expect(run.stderr).toBe(
        `svc trigger: sending the contract's example mini_app_id ${received.at(-1)!.mini_app_id}: pass --backend-env <file> (its SVC_MINI_APP_ID), or --set mini_app_id=<your app's id>.\n`,
      );
    }
    await trigger(
      'scope.granted',
      '--to',
      handled,
      '--secret-file',
      'secret.txt',
      '--set',
      'mini_app_id=0123456789abcdef',
    );
    expect(received.at(-1)!.mini_app_id).toBe('0123456789abcdef');
  });

  it('sends to a backend behind basic authentication, and prints its URL without the password', async () => {
    const withPassword = handled.replace('http://', 'http://staging:pa55word@');
    const run = await trigger('scope.granted', '--to', withPassword, '--secret-file', 'secret.txt');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`POST ${handled.replace('http://', 'http://staging:***@')}  scope.granted`);
    expect(run.stdout + run.stderr).not.toContain('pa55word');
  });

  it('sends to an https backend', async () => {
    const before = received.length;
    const run = await trigger('scope.granted', '--to', secure, '--backend-env', 'backend.env');
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\n<-- 200 OK in \d+ ms\n\{"ok":true\}\n$/);
    expect(run.code).toBe(0);
    expect(received.slice(before).map((e) => e.event)).toEqual(['scope.granted']);
  });

  it("says when the backend's certificate is not trusted", async () => {
    const untrusted = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(
        process.execPath,
        [bin, 'trigger', 'scope.granted', '--to', secure, '--secret-file', 'secret.txt'],
        { cwd: dir, env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } },
        (error, _stdout, stderr) => done({ code: error ? Number(error.code) : 0, stderr }),
      ),
    );
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(
      /could not deliver to https:.* \(DEPTH_ZERO_SELF_SIGNED_CERT: the backend's certificate is not one Node trusts; for a certificate of your own, set NODE_EXTRA_CA_CERTS/,
    );
  });

  it('reports a redirect as an answer that is not a 2xx, without following it', async () => {
    const before = received.length;
    const run = await trigger('scope.granted', '--to', redirecting, '--secret-file', 'secret.txt');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\n<-- 307 Temporary Redirect in \d+ ms\n$/);
    expect(run.stderr).toMatch(/answered 307, not a 2xx/);
    expect(received.length).toBe(before);
  });

  it('prints the start of a long answer and its length', async () => {
    const run = await trigger('scope.granted', '--to', verbose, '--secret-file', 'secret.txt');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\n<-- 200 OK in \d+ ms\nx{2000}… \(5242880 characters\)\n$/);
  });

  it('reports a 401 with the likely cause when the backend holds another secret', async () => {
    const run = await trigger('scope.granted', '--to', handled, '--secret-file', 'wrong.txt');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/<-- 401 Unauthorized in \d+ ms\n.*bad-signature/);
    expect(run.stderr).toMatch(/answered 401, not a 2xx.*does the backend verify with this signing secret/);
    expect(run.stdout + run.stderr).not.toContain('whsec_not_this_one');
  });

  it('reports a non-2xx answer with its body, and the retries it would cause', async () => {
    const run = await trigger('app.revoked', '--to', failing, '--secret-file', 'secret.txt');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/<-- 500 Internal Server Error in \d+ ms\n\{"error":"db down"\}/);
    expect(run.stderr).toMatch(/retry this delivery with backoff for 24 h/);
    // With --again, the second delivery is not sent, and that is said.
    const again = await trigger('app.revoked', '--to', failing, '--secret-file', 'secret.txt', '--again');
    expect(again.code).toBe(1);
    expect(again.stdout.match(/^POST /gm)).toHaveLength(1);
    expect(again.stderr).toContain('svc trigger: not sent again (--again): the first delivery was not acknowledged.');
  });

  it("prints the backend's answer with the signing secret and any token in it redacted", async () => {
    const run = await trigger('app.revoked', '--to', echoing, '--secret-file', 'secret.txt');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '{"error":"signature mismatch; secret in use: [redacted]","auth":"Bearer [redacted]","token":"[redacted]"}',
    );
    expect(run.stdout).not.toContain(SECRET);
    expect(run.stdout).not.toContain(TOKEN.split('.')[2]);
  });

  it("shows the backend's answer as text: its escape sequences and bidirectional controls escaped, its lines kept", async () => {
    const run = await trigger('app.revoked', '--to', drawing, '--secret-file', 'secret.txt');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/<-- 500 Internal Server Error in \d+ ms\n/);
    expect(run.stdout).toContain(
      '{"ok":true}\n\\u001b[2K\\u001b[1A\\u001b[32m<-- 200 OK in 3 ms\\u001b[0m \\u001b]0;pwned\\u0007 \\u202eRLO\\u000d\n\tend',
    );
    for (const raw of ['\u001b', '\u0007', '\u202e', '\r']) expect(run.stdout).not.toContain(raw);
  });

  it('reports a backend slower than 5 s with its time, naming the rule', async () => {
    const run = await trigger('installation.created', '--to', slow, '--secret-file', 'secret.txt');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/<-- 200 OK in (5[2-9]\d\d|[6-9]\d{3}) ms/);
    expect(run.stderr).toMatch(/answered in \d+ ms, over the platform's 5 s rule/);
  });

  it('reports an unreachable URL with exit 1', async () => {
    const closed = createServer();
    const url = await listen(closed, '/hooks');
    await new Promise((ok) => closed.close(ok));
    servers.splice(servers.indexOf(closed), 1);
    const run = await trigger('scope.revoked', '--to', url, '--secret-file', 'secret.txt');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/could not deliver to .* after \d+ ms \(ECONNREFUSED: is the backend running at/);
  });

  it('refuses a --set value whose bytes are not UTF-8, which would reach the backend as another value', async () => {
    const before = requests;
    const typed = `"${process.execPath}" "${bin}" trigger user.deprovisioned --to ${handled} --secret-file secret.txt --set "app_user_id=$(printf 'au-\\377\\376')"`;
    const run = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile('/bin/sh', ['-c', typed], { cwd: dir }, (error, _stdout, stderr) =>
        done({ code: error ? Number(error.code) : 0, stderr }),
      ),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--set app_user_id: its value holds U+FFFD at character 4, what bytes that are not UTF-8 text become: type the value in UTF-8',
    );
    expect(requests).toBe(before);
  });

  it('refuses bad input with exit 2 and a sentence saying what to do, sending nothing', async () => {
    const before = requests;
    const cases: [string[], RegExp][] = [
      [
        ['user.left', '--to', handled, '--secret-file', 'secret.txt'],
        /unknown event "user.left"; the events are installation.created, installation.deleted, scope.granted, scope.revoked, user.deprovisioned, app.revoked/,
      ],
      [['--to', handled], /name the event to send: one of installation.created/],
      [['scope.granted', '--secret-file', 'secret.txt'], /--to <url>/],
      [
        ['scope.granted', '--to', 'ftp://127.0.0.1/x', '--secret-file', 'secret.txt'],
        /is a ftp: URL: webhooks go to http or https URLs/,
      ],
      [
        ['scope.granted', '--to', 'localhost:3000', '--secret-file', 'secret.txt'],
        /--to localhost:3000 has no http:\/\/ or https:\/\/: write the URL whole, such as http:\/\/localhost:3000/,
      ],
      [['scope.granted', '--to', 'not a url', '--secret-file', 'secret.txt'], /--to not a url is not a URL/],
      [['scope.granted', '--to', handled], /no signing secret: pass --backend-env <file>.* or --secret-file <file>/],
      [
        ['scope.granted', '--to', handled, '--backend-env', 'no-secret.env'],
        /no-secret.env has no SVC_SIGNING_SECRET line/,
      ],
      [['scope.granted', '--to', handled, '--secret-file', 'missing.txt'], /cannot read missing.txt \(ENOENT\)/],
      // A device would be read without end; a secret is a few dozen bytes.
      [
        ['scope.granted', '--to', handled, '--secret-file', '/dev/zero'],
        /cannot read \/dev\/zero \(not a regular file\)/,
      ],
      [
        ['scope.granted', '--to', handled, '--backend-env', '/dev/zero'],
        /cannot read \/dev\/zero \(not a regular file\)/,
      ],
      [['scope.granted', '--to', handled, '--secret-file', 'secret.txt', '--backend-env', 'backend.env'], /not both/],
      [
        ['scope.granted', '--to', handled, '--secret-file', 'secret.txt', '--set', 'user=au-bob'],
        /--set user: scope.granted has no field user; its fields are occurred_at, mini_app_id, tenant_id, app_user_id, scope/,
      ],
      [
        ['scope.granted', '--to', handled, '--secret-file', 'secret.txt', '--set', 'scope'],
        /--set scope: write it as field=value/,
      ],
      [
        ['installation.deleted', '--to', handled, '--secret-file', 'secret.txt', '--set', 'removed_by=robot'],
        /--set removed_by=robot: .*must match the contract/,
      ],
      [
        ['scope.granted', '--to', handled, '--secret-file', 'secret.txt', '--set', 'event=x'],
        /the event is the first argument/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await trigger(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr).toMatch(/Run `svc trigger --help` for usage/);
      expect(run.stdout).toBe('');
    }
    expect(requests).toBe(before);
  });

  it('is listed in svc --help', async () => {
    const help = await new Promise<string>((done) =>
      execFile(process.execPath, [bin, '--help'], (_e, stdout) => done(stdout)),
    );
    expect(help).toMatch(/trigger <event> --to <url>\s+Send one signed test webhook/);
  });
});
