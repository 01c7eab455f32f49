// Deep links launch the app only at routes its manifest declares, with their parameters.
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../src/dev/matchRoute';

const routes = [{ path: '/' }, { path: '/poll' }, { path: '/poll/:id/results' }];

describe('matchRoute', () => {
  it('matches a declared route, with its query and path parameters', () => {
    expect(matchRoute(routes, '/poll?id=7')).toEqual({ route: '/poll', id: '7' });
    expect(matchRoute(routes, '/poll/p%201/results')).toEqual({ route: '/poll/:id/results', id: 'p 1' });
    expect(matchRoute(routes, '/')).toEqual({ route: '/' });
  });

  it('refuses a link to a route the manifest does not declare', () => {
    expect(matchRoute(routes, '/admin')).toBeUndefined();
    expect(matchRoute(routes, '/poll/7')).toBeUndefined();
  });

  it('never lets the query override the route', () => {
    expect(matchRoute(routes, '/poll?route=/admin')).toEqual({ route: '/poll' });
  });
});
