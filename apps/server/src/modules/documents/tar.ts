import { gzipSync } from 'node:zlib';

export interface TarEntry {
  /** Path inside the archive, with forward slashes. */
  path: string;
  data: Buffer;
  mode?: number;
}

/** Writes one ustar header field: text padded with NULs, or an octal number. */
function field(header: Buffer, offset: number, length: number, value: string | number): void {
  const text = typeof value === 'number' ? value.toString(8).padStart(length - 1, '0') : value;
  header.write(text, offset, Math.min(Buffer.byteLength(text), length), 'utf8');
}

function header(entry: TarEntry, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  let name = entry.path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  if (Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155) throw new Error(`path too long for tar: ${entry.path}`);
  field(h, 0, 100, name);
  field(h, 100, 8, entry.mode ?? 0o644);
  field(h, 108, 8, 0);
  field(h, 116, 8, 0);
  field(h, 124, 12, entry.data.length);
  field(h, 136, 12, Math.floor(mtime / 1000));
  h.fill(0x20, 148, 156); // checksum is computed with spaces here
  h.write('0', 156); // regular file
  field(h, 257, 6, 'ustar');
  field(h, 263, 2, '00');
  field(h, 345, 155, prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  field(h, 148, 7, sum);
  h[155] = 0x20;
  return h;
}

/** A gzip-compressed POSIX ustar archive of regular files (what `tar xzf` unpacks). */
export function tarGz(entries: TarEntry[], mtime = Date.now()): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry, mtime), entry.data);
    const pad = (512 - (entry.data.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
