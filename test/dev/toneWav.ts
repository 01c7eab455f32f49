// A sound file every engine plays: a WAV of a 440 Hz tone, 8 kHz, mono, 16-bit PCM, 16 KB a second. A minute of it
// is large enough that a browser streams it rather than taking it whole, so seeking needs byte ranges.

/** The WAV file of a tone lasting `seconds`. */
export function toneWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16); // the format chunk's size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // one channel
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28); // bytes a second
  wav.writeUInt16LE(2, 32); // bytes a sample
  wav.writeUInt16LE(16, 34); // bits a sample
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

/**
 * A script for a page with `<audio id="a" src="…">` and `<p id="out">`: once the sound's length is known, it seeks
 * to 45 s and writes what the element said to #out, as JSON: the duration, the end of what is seekable, and the
 * time after the seek (or the media error's code).
 */
export const SEEK_AUDIO = `
const a = document.getElementById('a');
const out = document.getElementById('out');
const report = (r) => { out.textContent = JSON.stringify(r); };
a.addEventListener('error', () => report({ error: a.error && a.error.code }));
const seek = () => {
  const seekable = a.seekable.length ? a.seekable.end(a.seekable.length - 1) : null;
  a.addEventListener('seeked', () => report({ duration: a.duration, seekable, time: a.currentTime }), { once: true });
  a.currentTime = 45;
};
if (a.readyState >= 1) seek();
else a.addEventListener('loadedmetadata', seek, { once: true });
`;
