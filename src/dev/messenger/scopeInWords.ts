/** Each manifest scope in words, as the permission sheet and the settings name it to the person. */
const SCOPE_WORDS: Record<string, string> = {
  'svc.identity.basic': 'Your name and organisation',
  'svc.room.context': 'The room it is opened in',
  'svc.message.send': 'Send messages for you',
  'svc.notifications': 'Notifications',
  'svc.files.read': 'Read your files',
  'svc.files.write': 'Save files',
  // Kept by the platform for the person, as a host keeps it for their devices: not one device's.
  'svc.storage': 'Storage kept for you',
};

/** A manifest scope in words (its own name when it has none). */
export const scopeInWords = (scope: string): string => SCOPE_WORDS[scope] ?? scope;
