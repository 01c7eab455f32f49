// A Vitest reporter for CI: when no test has ended for a while (3 minutes; SVC_STALL_SECONDS), it says which tests
// run and which ended last, and the processes under Vitest, once per stall. A test's own timeout cannot stop a worker
// blocked in synchronous code (a spawnSync, a regular expression that never ends), and Vitest's default reporter
// says nothing until a whole file ends: a run once hung silently until CI's limit, with nothing in its log to say
// where. It only reports; npm test's step limit (scripts/test.mjs) ends such a run.
import { describeProcessTree } from './processTree.mjs';

const quietMs = Number(process.env.SVC_STALL_SECONDS ?? 180) * 1000;

/** Vitest's reporter of stalls (see the file's head). */
export default class StallWatch {
  /** Test id to its name and when it was reported started; the files running, the same way. */
  running = new Map();
  files = new Map();
  lastEnded = { name: '(none yet)', at: Date.now() };
  said = false;

  onInit() {
    this.timer = setInterval(() => void this.check(), 10_000);
    this.timer.unref();
  }

  onTestModuleStart(module) {
    this.files.set(module.id, { name: module.relativeModuleId, at: Date.now() });
  }

  onTestModuleEnd(module) {
    this.files.delete(module.id);
  }

  onTestCaseReady(test) {
    this.running.set(test.id, { name: `${test.module.relativeModuleId} > ${test.fullName}`, at: Date.now() });
  }

  onTestCaseResult(test) {
    const name = this.running.get(test.id)?.name ?? `${test.module.relativeModuleId} > ${test.fullName}`;
    this.running.delete(test.id);
    this.lastEnded = { name, at: Date.now() };
    this.said = false;
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  async check() {
    const quiet = Date.now() - this.lastEnded.at;
    if (this.said || quiet < quietMs) return;
    this.said = true;
    const ago = (at) => `${Math.round((Date.now() - at) / 1000)} s ago`;
    const list = (map) => [...map.values()].map((t) => `  ${t.name} (started ${ago(t.at)})`).join('\n');
    console.error(
      [
        `\nstall watch: no test has ended for ${Math.round(quiet / 1000)} s.`,
        `Last ended: ${this.lastEnded.name}.`,
        `Files running:\n${list(this.files) || '  (none reported)'}`,
        // A worker blocked in synchronous code has not sent the start of the test it blocks in.
        `Tests running, as the workers last said:\n${list(this.running) || '  (none reported)'}`,
        'Processes under Vitest:',
        await describeProcessTree(process.pid),
      ].join('\n'),
    );
  }
}
