import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

export interface TarEntry {
  /** Path inside the archive, with forward slashes. */
  path: string;
  data: Buffer;
  mode?: number;
}

/**
 * A gzip-compressed POSIX ustar archive of regular files (what `tar xzf` unpacks). The same
 * entries and time give the same bytes, so a seeded package is stored again only when it changes.
 */
export async function tarGz(entries: TarEntry[], mtime = Date.now()): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => archive.once('end', resolve).once('error', reject));
  const date = new Date(Math.floor(mtime / 1000) * 1000);
  for (const entry of entries) archive.entry({ name: entry.path, size: entry.data.length, mode: entry.mode ?? 0o644, mtime: date, uid: 0, gid: 0, type: 'file' }, entry.data);
  archive.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks), { level: 9 });
}
