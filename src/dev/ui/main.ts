// The messenger page's entry. zod must be told before any schema exists that the page's CSP has no 'unsafe-eval':
// otherwise building the manifest's object schemas probes for it with `new Function`, a CSP error in the console
// on every load (any host page under a strict CSP that bundles the manifest validator needs the same). The page
// itself is loaded after that, so none of its modules (the host's rules build schemas) runs first.
import { config } from 'zod';

config({ jitless: true });
void import('./messenger');
