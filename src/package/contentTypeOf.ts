// By extension: what a package holds and a browser loads from it.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.pdf': 'application/pdf',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.apng': 'image/apng',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  // Captions, data, 3D models, more media and documents an app loads (an outside check's list of common ones).
  '.vtt': 'text/vtt; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.geojson': 'application/geo+json',
  '.jsonld': 'application/ld+json',
  '.rss': 'application/rss+xml',
  '.atom': 'application/atom+xml',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.gltf': 'model/gltf+json',
  '.glb': 'model/gltf-binary',
  '.ktx2': 'image/ktx2',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.jxl': 'image/jxl',
  '.heic': 'image/heic',
  '.flac': 'audio/flac',
  '.aac': 'audio/aac',
  '.ogv': 'video/ogg',
  '.mov': 'video/quicktime',
  '.mpeg': 'video/mpeg',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.mpd': 'application/dash+xml',
};

/**
 * The content type a package's file is stored and served with, by its extension; any other file is
 * `application/octet-stream` (served with `nosniff`, so a browser never guesses). One table for `svc pack` and the
 * package server of `svc dev`.
 */
export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const ext = dot > path.lastIndexOf('/') ? path.slice(dot).toLowerCase() : '';
  return TYPES[ext] ?? 'application/octet-stream';
}
