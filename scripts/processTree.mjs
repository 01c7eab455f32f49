// What a CI log needs when a step stops moving: the processes under it, each with its state, what it waits in, the
// CPU it uses now and its command. Read from /proc (Linux, where CI runs); elsewhere it says it cannot.
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command's name: its state, parent, and CPU ticks so far. */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** Every process under `root` (not `root` itself), parents before their children, with its depth. */
export function descendantsOf(root) {
  let pids;
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
  const children = new Map();
  for (const pid of pids) {
    const parent = stat(pid)?.ppid;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const out = [];
  const visit = (pid, depth) => {
    for (const child of children.get(pid) ?? []) {
      out.push({ pid: child, depth });
      visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return out;
}

/**
 * The processes under `root` as lines: pid, state (R runs, S sleeps, D waits on a disk, Z exited), the share of a
 * core it used over the last second (a process at 100% in a test that waits is spinning), the kernel function it
 * sleeps in, and its command, cut to 160 characters, any token-like run in it redacted.
 */
export async function describeProcessTree(root) {
  const tree = descendantsOf(root);
  if (tree.length === 0) return '  (no processes under it, or no /proc to read them from)';
  const before = new Map(tree.map(({ pid }) => [pid, stat(pid)?.ticks ?? 0]));
  await new Promise((done) => setTimeout(done, 1000));
  return tree
    .map(({ pid, depth }) => {
      const now = stat(pid);
      const cpu = now ? `${Math.round(now.ticks - (before.get(pid) ?? 0))}%` : '-';
      // A test's command line may carry a token it made (a bearer header, a key): long runs of base64 go unsaid.
      const command = read(`/proc/${pid}/cmdline`)
        .replaceAll('\0', ' ')
        .replace(/\b(Bearer\s+)\S+/gi, '$1[redacted]')
        .replace(/[\w+=-]{32,}/g, '[redacted]')
        .trim()
        .slice(0, 160);
      const waits = read(`/proc/${pid}/wchan`) || '-';
      return `  ${'  '.repeat(depth)}${pid} ${now?.state ?? 'gone'} cpu ${cpu} in ${waits}: ${command}`;
    })
    .join('\n');
}
