import type { Writable } from 'node:stream';

/**
 * Holds a socket's writes until the current turn of the event loop ends, so that what is
 * written in one turn leaves in one system call. Call the returned function before each write.
 *
 * Why: one stored batch fans out to every browser watching its lifts as one WebSocket frame
 * per change, each frame its own `writev` on that browser's socket. With 50 browsers
 * watching 20 busy lifts that was 20,000 system calls a second, a sixth of the server's
 * main thread, the thread that also takes the lifts' messages (docs/operations.md 7.1). The
 * frames are the same and arrive in the same order; only their bytes travel together.
 */
export function oneWritePerTurn(socket: Pick<Writable, 'cork' | 'uncork'>): () => void {
  let held = false;
  const release = () => {
    held = false;
    socket.uncork();
  };
  return () => {
    if (held) return;
    held = true;
    socket.cork();
    // After the code that is writing now, before any I/O: no frame waits for another turn.
    process.nextTick(release);
  };
}
