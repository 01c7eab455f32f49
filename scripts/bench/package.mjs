// Signed packages (scripts/bench.mjs): pack and verify a 5 MB app of 51 files, as the research note measured
// (37 ms sign, 14 ms verify with wbn-sign and a node:crypto verifier). In-process: building the bundle (wbn), signing
// it (wbn-sign) and verifyPackage (dist/package.js, WebCrypto); and `svc pack` / `svc verify` through the built bin,
// Node's start included. Medians, with the minimum.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BundleBuilder } from 'wbn';
import { IntegrityBlockSigner, NodeCryptoSigningStrategy } from 'wbn-sign';

const root = resolve(import.meta.dirname, '../..');

const stats = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0] };
};
const time = async (runs, fn) => {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return stats(samples);
};

/** Measures; returns rows of { what, median, min } in ms and the app's size. */
export async function benchPackage({ runs = 15 } = {}) {
  const { verifyPackage } = await import(join(root, 'dist/package.js'));
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-package-'));
  try {
    const { privateKey } = generateKeyPairSync('ed25519');
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const id = execFileSync(
      'sh',
      ['-c', `openssl pkey -in '${keyFile}' -pubout -outform DER | sha256sum | cut -c1-16`],
      {
        encoding: 'utf8',
      },
    ).trim();
    const app = join(dir, 'app');
    mkdirSync(join(app, 'assets'), { recursive: true });
    mkdirSync(join(app, 'icons'));
    const files = {};
    for (let i = 0; i < 47; i++) files[`assets/chunk-${i}.js`] = randomBytes(110_000);
    files['index.html'] = Buffer.from('<!doctype html><title>bench</title><script src="assets/chunk-0.js"></script>');
    files['icons/icon-192.png'] = randomBytes(20_000);
    files['icons/icon-512.png'] = randomBytes(60_000);
    files['manifest.json'] = Buffer.from(
      JSON.stringify({
        manifest_version: 1,
        id,
        name: 'Bench',
        version: '1.0.0',
        description: 'A five-megabyte app to measure packing and verifying.',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        ],
        vendor: { id: 'bench', name: 'Bench', contact: 'bench@example.com' },
        age_rating: '4+',
        entry: 'index.html',
        routes: [{ path: '/', title: 'Home' }],
        permissions: [],
        network: { connect: [] },
        csp: "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'",
        auth: { type: 'none' },
      }),
    );
    for (const [path, bytes] of Object.entries(files)) writeFileSync(join(app, path), bytes);
    const size = Object.values(files).reduce((n, b) => n + b.length, 0);
    const paths = Object.keys(files).sort();

    let bundle;
    const build = await time(runs, () => {
      const builder = new BundleBuilder('b2');
      for (const p of paths)
        builder.addExchange(`/${p}`, 200, { 'content-type': 'application/octet-stream' }, files[p]);
      bundle = builder.createBundle();
    });
    let signed;
    const sign = await time(runs, async () => {
      signed = (await new IntegrityBlockSigner(bundle, id, [new NodeCryptoSigningStrategy(privateKey)]).sign())
        .signedWebBundle;
    });
    const verify = await time(runs, () => verifyPackage(signed));
    const bin = (args) => () =>
      execFileSync(process.execPath, [join(root, 'dist/cli.js'), ...args], { cwd: dir, stdio: 'ignore' });
    const pack = await time(Math.min(runs, 7), bin(['pack', 'app', '--key', keyFile, '--out', 'app.swbn']));
    const check = await time(Math.min(runs, 7), bin(['verify', 'app.swbn']));
    return {
      size,
      files: paths.length,
      packageBytes: signed.length,
      rows: [
        { what: 'build the bundle (wbn)', ...build },
        { what: 'sign it, one Ed25519 key (wbn-sign)', ...sign },
        { what: 'verifyPackage (WebCrypto, all checks)', ...verify },
        { what: 'svc pack, the bin (Node start included)', ...pack },
        { what: 'svc verify, the bin (Node start included)', ...check },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
