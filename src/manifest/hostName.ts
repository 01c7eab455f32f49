/**
 * A network allowlist host: a bare lowercase host name with at least two labels, each label made of letters,
 * digits and inner hyphens, and a last label that is not all digits (so no IPv4 address can match).
 * @public
 */
export const HOST_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Explains why a string is not an allowlist host and what to write instead, or returns `null` when it is one.
 *
 * @example
 * ```ts
 * describeHostProblem('https://api.example.com/v1'); // 'remove the scheme and the path: write "api.example.com"'
 * ```
 * @public
 */
export function describeHostProblem(value: string): string | null {
  if (HOST_PATTERN.test(value)) return null;
  const removed: string[] = [];
  let host = value.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(host);
  if (scheme) {
    removed.push(`the scheme "${scheme[1]}://" (HTTPS and WSS are implied)`);
    host = host.slice(scheme[0].length);
  }
  const slash = host.search(/[/?#]/);
  if (slash >= 0) {
    removed.push('the path');
    host = host.slice(0, slash);
  }
  const at = host.lastIndexOf('@');
  if (at >= 0) {
    removed.push('the user info');
    host = host.slice(at + 1);
  }
  if (host.startsWith('[') || host.split(':').length > 2) {
    return 'IP addresses are not allowed (only in development mode); use a host name such as "api.example.com"';
  }
  const port = /:(\d*)$/.exec(host);
  if (port) {
    removed.push(`the port ":${port[1]}" (only the standard HTTPS/WSS port is used)`);
    host = host.slice(0, port.index);
  }
  const fixed = host.toLowerCase().replace(/\.$/, '');
  const fix = fixed !== value && HOST_PATTERN.test(fixed) ? `: write "${fixed}"` : '';
  if (removed.length > 0) return `remove ${removed.join(' and ')}${fix}`;
  if (host.includes('*')) return 'wildcards are not allowed; list each host name, such as "api.example.com"';
  if (/^[0-9.]+$/.test(host)) {
    return 'IP addresses are not allowed (only in development mode); use a host name such as "api.example.com"';
  }
  if (fixed !== host && HOST_PATTERN.test(fixed)) return `write host names in lowercase without a trailing dot${fix}`;
  if (!host.includes('.'))
    return `"${value}" has a single label; write a full host name with at least two labels, such as "api.example.com"`;
  if (host.length > 253) return 'a host name is at most 253 characters long';
  return 'each label may contain only letters a-z, digits and inner hyphens (at most 63 characters), and the last label must contain a letter; write something like "api.example.com"';
}
