import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images and fonts in binary formats are compressed already. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|webmanifest|ico)$/;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // `.vite/manifest.json` is for the build's tools; the server never sends dot folders.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to a file. */
export async function precompressFile(file: string): Promise<{ raw: number; br: number; gz: number }> {
  const data = await readFile(file);
  const [br, gzipped] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // A copy that saves nothing is left out: the server then sends the file itself.
  if (br.length < data.length) await writeFile(`${file}.br`, br);
  if (gzipped.length < data.length) await writeFile(`${file}.gz`, gzipped);
  return { raw: data.length, br: br.length, gz: gzipped.length };
}

/** Compresses every text file under `dir` (the built client), a few at a time. */
export async function precompressDir(dir: string): Promise<{ files: number; raw: number; br: number; gz: number }> {
  const files: string[] = [];
  for await (const file of filesUnder(dir)) if (COMPRESSIBLE.test(file)) files.push(file);
  const total = { files: files.length, raw: 0, br: 0, gz: 0 };
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if ((await stat(file)).size === 0) continue;
      const sizes = await precompressFile(file);
      total.raw += sizes.raw;
      total.br += sizes.br;
      total.gz += sizes.gz;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return total;
}

/**
 * Vite plugin: after the client is written, a brotli and a gzip copy of every text asset
 * (scripts, styles, index.html, SVG, JSON), for the server to send by Accept-Encoding
 * without compressing anything per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'liftlink-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const t0 = Date.now();
      const total = await precompressDir(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      this.info(
        `precompressed ${total.files} files in ${Date.now() - t0} ms: ${kb(total.raw)} -> brotli ${kb(total.br)}, gzip ${kb(total.gz)}`,
      );
    },
  };
}
