import net from 'node:net';

/**
 * Ports handed out here lie below Linux's ephemeral range (32768-60999), where the system
 * picks the local port of every outgoing connection: a port found free in that range can be
 * taken by some client's connection before the child process listens on it (seen with
 * thousands of benchmark lifts connecting while a broker node started).
 */
const FULL_RANGE = { from: 20_000, to: 32_767 };

/**
 * Test files run in several vitest workers at once, each handing out ports on its own: each
 * worker (VITEST_POOL_ID, 1 to maxWorkers) takes a slice of the range of its own, so two
 * workers never give the same port to two servers starting together. Elsewhere (the
 * benchmarks, the browser tests' set-up) the whole range.
 */
const SLICES = 4;
function rangeOfThisWorker(): { from: number; to: number } {
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1) return FULL_RANGE;
  const size = Math.floor((FULL_RANGE.to - FULL_RANGE.from + 1) / SLICES);
  const from = FULL_RANGE.from + ((pool - 1) % SLICES) * size;
  return { from, to: from + size - 1 };
}
const RANGE = rangeOfThisWorker();

async function tryListen(port: number): Promise<number | null> {
  const server = net.createServer();
  const listening = await new Promise<boolean>((resolve) => server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true)));
  if (!listening) return null;
  const { port: bound } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

/** Ports this process handed out: one not yet listened on is still free, and must not be given twice. */
const handedOut = new Set<number>();

/** A port that was free a moment ago (for child processes that cannot listen on 0 and report). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from + 1));
    if (handedOut.has(candidate)) continue;
    const port = await tryListen(candidate);
    if (port !== null) {
      handedOut.add(port);
      return port;
    }
  }
  // A crowded range: any port the system gives.
  const port = await tryListen(0);
  if (port === null) throw new Error('no free port');
  return port;
}

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(port: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > end) throw new Error(`nothing listens on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls until `probe` returns something truthy. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 30_000, everyMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${last instanceof Error ? last.message : JSON.stringify(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
