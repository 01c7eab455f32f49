// The smallest real use of the SDK, budgeted by `npm run size`: import `svc` and make one call. The facade is built
// from the whole registry, so this is the SDK's floor in any app that imports it, whichever operation it calls.
import { svc } from 'svc-sdk';

svc.room.current().then((room) => {
  document.title = room?.name ?? 'no room';
});
