/**
 * The `svc` command line as functions, for tests and for tools that embed it.
 * @packageDocumentation
 */
export { runCli } from './runCli';
export { validateCommand } from './validateCommand';
export { checkCommand, type CheckFinding } from './checkCommand';
export { initCommand } from './initCommand';
export { findBridgeCalls, type BridgeCall } from './findBridgeCalls';
export { createStarterManifest } from './starterManifest';
export type { CliIo, TypeScriptApi } from './CliIo';
