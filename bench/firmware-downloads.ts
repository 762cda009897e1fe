/**
 * `npm run bench:firmware`: one campaign wave's downloads at fleet scale (docs/firmware.md).
 * BENCH_LIFTS (1,000) lifts each download a BENCH_IMAGE_MB (10) MB image from one server on
 * PostgreSQL, BENCH_CONCURRENCY (all of them) at a time, as the lifts of one wave would.
 * The lifts run in a process of their own (bench/firmware-download-client.ts) and hash every
 * image; the server's CPU and memory are measured alone.
 *
 * Figures, not assertions, as one JSON line: offers signed per second (manifest, token,
 * Ed25519 signature), wall time until every lift has its image, aggregate MB/s, per-download
 * p50/p95/p99, bytes served, the server's CPU seconds and peak RSS and heap, failures.
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the PostgreSQL server that gets a scratch
 * database.
 */
import { spawn } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPrivateServer } from './private-server.ts';
import { percentile } from './stats.ts';

const LIFTS = Number(process.env.BENCH_LIFTS ?? 1_000);
const IMAGE_MB = Number(process.env.BENCH_IMAGE_MB ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? LIFTS);
const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'firmware-download-client.ts');
const MiB = 1024 * 1024;

interface ClientResult {
  ms: number[];
  bytes: number;
  failures: number;
  hashes: string[];
}

/** Runs the lifts' downloads in their own process; resolves with what they measured. */
function runLifts(job: unknown): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as ClientResult) : reject(new Error(`lifts exited with ${code}`))));
    child.stdin.end(JSON.stringify(job));
  });
}

await withPrivateServer('bench_firmware', async ({ app, sql, adminHeaders, log }) => {
  const admin = await adminHeaders();
  const [maker] = await sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
  const [role] = await sql.query<{ id: string }>(`select id from roles where name = 'manufacturerEngineer'`);
  const password = 'Bench-Engineer-Pass-1';
  const created = await app.inject({ method: 'POST', url: '/auth/access/system/users/create', headers: admin, payload: { username: 'benchmaker', name: 'Bench Maker', password, roleId: role!.id, orgId: maker!.id } });
  if (created.statusCode !== 200) throw new Error(`engineer: ${created.body}`);
  const signIn = await app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'benchmaker', password } });
  const engineer = { 'access-token': signIn.json().result.token as string };

  const image = randomBytes(IMAGE_MB * MiB);
  const pkg = await app.inject({ method: 'POST', url: '/auth/access/firmware/packages/create', headers: engineer, payload: { kinds: ['inclinedStraightRack'], version: 'FW-9.0.0', minVersion: 'FW-1.0.0' } });
  const packageId = pkg.json().result.id as string;
  const uploadStarted = performance.now();
  const uploaded = await app.inject({ method: 'POST', url: `/auth/access/firmware/packages/upload?id=${packageId}`, headers: { ...engineer, 'content-type': 'application/octet-stream' }, payload: image });
  if (uploaded.statusCode !== 200) throw new Error(`upload: ${uploaded.body}`);
  const uploadMs = performance.now() - uploadStarted;
  log(`image of ${IMAGE_MB} MB uploaded in ${Math.round(uploadMs)} ms`);

  const deviceNos = Array.from({ length: LIFTS }, (_, i) => `BFW-${String(i + 1).padStart(5, '0')}`);
  const lifts = await sql.query<{ id: string; device_no: string }>(
    `insert into lifts (device_no, kind, floors, firmware, manufacturer_org_id)
     select d, 'inclinedStraightRack', 2, 'FW-1.0.0', $2 from unnest($1::text[]) as d returning id, device_no`,
    [deviceNos, maker!.id],
  );
  const offersStarted = performance.now();
  const downloads = [];
  for (const l of lifts) {
    const offer = await app.firmware.offer({ packageId, liftId: l.id });
    downloads.push({ url: offer.manifest.url, token: offer.token, deviceNo: l.device_no });
  }
  const offersMs = performance.now() - offersStarted;
  log(`${LIFTS} offers signed in ${Math.round(offersMs)} ms`);

  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 50);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  log(`${LIFTS} lifts download, ${CONCURRENCY} at a time`);
  const result = await runLifts({ base, concurrency: CONCURRENCY, downloads });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  const sorted = [...result.ms].sort((a, b) => a - b);
  const expected = createHash('sha256').update(image).digest('hex');
  process.stdout.write(
    `${JSON.stringify({
      bench: 'firmware-downloads',
      lifts: LIFTS,
      imageMB: IMAGE_MB,
      concurrency: CONCURRENCY,
      uploadSeconds: Math.round(uploadMs) / 1000,
      offersPerSecond: Math.round((LIFTS / offersMs) * 1000),
      wallSeconds: Math.round(wallMs) / 1000,
      throughputMBps: Math.round(result.bytes / MiB / (wallMs / 1000)),
      downloadP50Ms: percentile(sorted, 50),
      downloadP95Ms: percentile(sorted, 95),
      downloadP99Ms: percentile(sorted, 99),
      bytesServed: result.bytes,
      bytesExpected: LIFTS * image.length,
      failures: result.failures,
      everyImageIntact: result.hashes.length === 1 && result.hashes[0] === expected,
      serverCpuSeconds: Math.round((cpu.user + cpu.system) / 1000) / 1000,
      serverRssBeforeMiB: Math.round(rssBefore / MiB),
      serverRssPeakMiB: Math.round(rssPeak / MiB),
      serverHeapPeakMiB: Math.round(heapPeak / MiB),
    })}\n`,
  );
});
