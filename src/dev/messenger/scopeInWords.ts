/** Each manifest scope in words, as the permission sheet and the settings name it to the person. */
const SCOPE_WORDS: Record<string, string> = {
  'svc.identity.basic': 'Your name and organisation',
  'svc.room.context': 'The room it is opened in',
  'svc.message.send': 'Send messages for you',
  'svc.notifications': 'Notifications',
  'svc.files.read': 'Read your files',
  'svc.files.write': 'Save files',
  'svc.storage': 'Storage on this device',
};

/** A manifest scope in words (its own name when it has none). */
export const scopeInWords = (scope: string): string => SCOPE_WORDS[scope] ?? scope;
