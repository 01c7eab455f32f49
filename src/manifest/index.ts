/**
 * `svc-sdk/manifest`: the manifest schema, its validator, its JSON Schema, and the action input validator.
 * @packageDocumentation
 */
export { ManifestSchema, CspSchema, type Manifest, type ManifestInput } from './ManifestSchema';
export { ActionSchema, ActionAnnotationsSchema, InputSchemaSchema } from './ActionSchema';
export { AuthSchema } from './AuthSchema';
// Every field schema: Distribution, Host, Icon, Network, Permission, Route, Vendor.
export * from './fieldSchemas';
export { formatJsonPath, type ManifestIssue, type ManifestIssueSeverity } from './ManifestIssue';
export {
  assertManifest,
  validateManifest,
  type ManifestValidationResult,
  type ValidateManifestOptions,
} from './validateManifest';
export { ManifestError, isManifestError } from './ManifestError';
export { checkCsp, parseCsp, type CspProblem } from './checkCsp';
export { describeHostProblem, HOST_PATTERN } from './hostName';
export { compareVersions, isVersion, VERSION_PATTERN } from './version';
export { checkJsonSchema, type CheckJsonSchemaOptions, type JsonSchemaProblem } from './checkJsonSchema';
export { createInputValidator, type InputIssue, type InputValidator } from './createInputValidator';
export { checkPlaceholders } from './checkPlaceholders';
export { createManifestJsonSchema, MANIFEST_SCHEMA_ID } from './createManifestJsonSchema';
