import { describe, expect, it } from 'vitest';
import { sniffPhotoType } from './incident-photos.ts';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('photo type by its first bytes', () => {
  it('knows JPEG, PNG and WebP, whatever the name says', () => {
    expect(sniffPhotoType(bytes([0xff, 0xd8, 0xff, 0xe1], 'Exif'))).toBe('image/jpeg');
    expect(sniffPhotoType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe('image/png');
    expect(sniffPhotoType(bytes('RIFF', [0x24, 0x08, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses other files, a RIFF that is no WebP and files too short to tell', () => {
    expect(sniffPhotoType(bytes('GIF89a'))).toBeNull();
    expect(sniffPhotoType(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBeNull();
    expect(sniffPhotoType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffPhotoType(bytes([0xff, 0xd8]))).toBeNull();
    expect(sniffPhotoType(new Uint8Array())).toBeNull();
  });
});
