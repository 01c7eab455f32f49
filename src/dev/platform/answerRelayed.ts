import type { ControlRoutes, McpRoute, McpRouteHandlers } from '../devContract';
import { ProblemError } from './ProblemError';
import { CONTROL_BODIES } from '../controlSchemas';
import { checkBody } from './jsonBody';

/** The page's answer routes to a relayed MCP call. */
const MCP_ROUTES: readonly McpRoute[] = [
  'POST /__svc/mcp/progress',
  'POST /__svc/mcp/result',
  'POST /__svc/mcp/elicit',
];

/**
 * Hands the page's answer to a relayed MCP call to the agent bridge's route, whether it came as a control request or
 * on the page's channel; rejects with a {@link ProblemError} naming what to do when the route is not one of the answers
 * or no bridge runs, or with what the route throws (an Error naming the field).
 * @internal
 */
export async function answerRelayed<R extends McpRoute>(
  routes: McpRouteHandlers | undefined,
  route: R,
  body: ControlRoutes[R]['request'],
): Promise<ControlRoutes[R]['response']> {
  if (!MCP_ROUTES.includes(route))
    throw new ProblemError(
      'invalid-request',
      `route must be one of ${MCP_ROUTES.join(', ')}: the page answers relayed MCP calls on its channel.`,
    );
  if (!routes)
    throw new ProblemError('not-found', `There is no control route ${route}: svc dev runs no agent bridge (--no-mcp).`);
  // Checked here, for the page's channel as for a control request: a misspelt field is named, not ignored.
  const checked = checkBody(CONTROL_BODIES[route], body) as ControlRoutes[R]['request'];
  const handle = routes[route] as (body: ControlRoutes[R]['request']) => ControlRoutes[R]['response'];
  return handle(checked);
}
