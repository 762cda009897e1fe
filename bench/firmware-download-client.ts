/**
 * The lifts' side of bench/firmware-downloads.ts, in a process of its own so that the
 * server's CPU and memory are its own: reads `{ base, concurrency, downloads: [{ url,
 * token, deviceNo }] }` as JSON on stdin, downloads every image as a lift does (Bearer token,
 * X-Device-No), at most `concurrency` at a time, counting bytes and hashing each image, and
 * prints `{ ms: [...], bytes, failures, hashes }` as JSON.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { FIRMWARE_DEVICE_NO_HEADER } from '@liftlink/protocol';

interface Job {
  base: string;
  concurrency: number;
  downloads: { url: string; token: string; deviceNo: string }[];
}

const job = JSON.parse(await text(process.stdin)) as Job;
const ms: number[] = [];
const hashes = new Set<string>();
let bytes = 0;
let failures = 0;
let next = 0;

async function worker(): Promise<void> {
  while (next < job.downloads.length) {
    const d = job.downloads[next++]!;
    const started = performance.now();
    try {
      const res = await fetch(new URL(d.url, job.base), {
        headers: { authorization: `Bearer ${d.token}`, [FIRMWARE_DEVICE_NO_HEADER]: d.deviceNo },
      });
      if (res.status !== 200 || !res.body) throw new Error(`HTTP ${res.status}`);
      const hash = createHash('sha256');
      for await (const chunk of Readable.fromWeb(res.body as WebReadableStream<Uint8Array>) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.byteLength;
      }
      hashes.add(hash.digest('hex'));
      ms.push(performance.now() - started);
    } catch (err) {
      failures++;
      process.stderr.write(`${d.deviceNo}: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

await Promise.all(Array.from({ length: job.concurrency }, () => worker()));
process.stdout.write(JSON.stringify({ ms, bytes, failures, hashes: [...hashes] }));
