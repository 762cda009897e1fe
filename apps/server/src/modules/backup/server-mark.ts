import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A running server marks its DATA_DIR (`server.pid`), so that `npm run backup` refuses to
 * open the embedded database under it (PGlite itself does not lock its folder).
 */
const MARK = 'server.pid';

export function markServerRunning(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, MARK);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    // Only our own mark: a second server on the same folder (a mistake) keeps its own.
    if (runningServerPid(dataDir) === process.pid) rmSync(file, { force: true });
  };
}

/** The process id of a live server on this DATA_DIR, or null (none, or a stale mark). */
export function runningServerPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dataDir, MARK), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: it exists but belongs to someone else; still a live process.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
