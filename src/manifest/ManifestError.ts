import { brandedError, hasErrorBrand } from '../protocol/errorBrand';
import type { ManifestIssue } from './ManifestIssue';

/**
 * Thrown by {@link assertManifest} when a manifest is invalid; `issues` holds every problem found.
 * @public
 */
export class ManifestError extends brandedError('ManifestError') {
  /** Every issue found, errors and warnings, in document order. */
  readonly issues: ManifestIssue[];

  constructor(issues: ManifestIssue[], options?: { cause?: unknown; source?: string }) {
    const errors = issues.filter((issue) => issue.severity === 'error');
    const lines = issues.map((issue) => `  ${issue.severity === 'warning' ? 'warning: ' : ''}${issue.message}`);
    const where = options?.source ? `${options.source}: ` : '';
    super(
      `${where}the manifest is invalid (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${lines.join('\n')}`,
      { cause: options?.cause },
    );
    this.issues = issues;
  }
}

/**
 * Tells whether a value is a {@link ManifestError}, also across bundles and realms where `instanceof` fails.
 * @public
 */
export function isManifestError(value: unknown): value is ManifestError {
  return hasErrorBrand(value, 'ManifestError');
}
