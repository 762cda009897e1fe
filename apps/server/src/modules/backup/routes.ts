import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  backupInfoSchema,
  fileResponsesOf,
  responsesOf,
  type BackupInfo,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { backupFileName, backupHeader, describeDatabase, productVersion } from './format.ts';
import { markServerRunning } from './server-mark.ts';

/** Bytes of a folder and everything in it. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/**
 * System → Backup. With the embedded database an administrator downloads a backup while
 * the server runs: the database is copied between two statements (ingest waits for that
 * moment and goes on), the same file `npm run backup` writes. Every download is audited.
 * The backup holds every account's password hash: it needs `user.export`, which only the
 * administrator role holds among the built-in roles.
 */
const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/auth/access/system/backup';
  const { database } = app;
  if (database.kind === 'pglite') {
    const unmark = markServerRunning(app.config.dataDir);
    app.addHook('onClose', async () => unmark());
  }

  app.get(
    `${base}/info`,
    { config: { access: 'user.export' }, schema: { response: responsesOf(backupInfoSchema) } },
    async () => {
      const { migrations, counts } = await describeDatabase(database.sql);
      const info: BackupInfo = {
        database: database.kind,
        productVersion: productVersion(),
        schema: { latest: migrations.at(-1) ?? '', count: migrations.length },
        counts,
        dataBytes:
          database.kind === 'pglite' && app.config.databaseUrl === undefined
            ? await folderBytes(path.join(app.config.dataDir, 'pg')).catch(() => null)
            : null,
        runLogRetentionDays: app.config.runLogRetentionDays,
      };
      return ok(info);
    },
  );

  app.get(
    base,
    {
      config: { access: 'user.export' },
      schema: {
        response: fileResponsesOf(
          'application/octet-stream',
          "A LiftLink backup (header, manifest, gzip'd data folder)",
        ),
      },
    },
    async (request, reply) => {
      if (database.kind !== 'pglite' || !database.dumpDataDir)
        throw new AppError('backup.external');
      // Counted first: the copy holds at least this (ingest may add a little meanwhile).
      const described = await describeDatabase(database.sql);
      const payload = await database.dumpDataDir();
      const { header, manifest } = backupHeader(payload, described);
      await app.audit({
        action: 'system.backup',
        result: 'ok',
        userId: request.auth!.userId,
        username: request.auth!.username,
        ip: request.ip,
        detail: {
          bytes: header.length + payload.byteLength,
          schema: manifest.migrations.at(-1),
          counts: manifest.counts,
        },
      });
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(header.length + payload.byteLength))
        .header('content-disposition', `attachment; filename="${backupFileName()}"`)
        .header('cache-control', 'no-store')
        // A file answer: its schema describes bytes, which the typed reply cannot express.
        .send(
          Readable.from([
            header,
            Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
          ]) as unknown as string,
        );
    },
  );
};

export default backupRoutes;
