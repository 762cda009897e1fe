import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  aliasUpdateSchema,
  configLogQuerySchema,
  controlSchema,
  daysQuerySchema,
  deviceNoSchema,
  hoursQuerySchema,
  iotUpdateSchema,
  liftCommandSchema,
  liftIdBodySchema,
  liftListQuerySchema,
  locationUpdateSchema,
  runLogQuerySchema,
  runSettingUpdateSchema,
  responsesOf,
  emptyResultSchema,
  fileResponsesOf,
  listOf,
  liftPageSchema,
  liftInfoSchema,
  runLogPageSchema,
  commandResultSchema,
  configReadResultSchema,
  configLogPageSchema,
  commandRecordSchema,
  dailyStatSchema,
  sampleSchema,
  ingestStatsSchema,
  qrcodeLiftSchema,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { csvFile } from '../../lib/csv.ts';
import { ownedLift } from './scope.ts';
import { configRoleFor } from '../access/policy.ts';
import { dailyStats, liftInfo, listLifts, publicLift, recentCommands, recentSamples, replaceLiftField, runLog, storedConfig } from './repository.ts';
import { sendCommand } from '../commands/service.ts';
import { approvalClassesFor } from '../control/index.ts';
import { configLogPage, updateIotInfo, writeConfig } from './config-service.ts';

const CSV_EXPORT_MAX = 100_000;

/** The spec's lift endpoints (section 7). Every one checks the permission and that the lift is the caller's. */
const liftRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/lift';
  const actor = (r: { auth: { userId: string; username: string } | null; ip: string }) => ({ userId: r.auth!.userId, username: r.auth!.username, ip: r.ip });

  app.get(`${base}/get`, { config: { access: 'lift.query' }, schema: { tags: ['lifts'], response: responsesOf(liftPageSchema), querystring: liftListQuerySchema } }, async (request) => ok(await listLifts(sql, request.auth!, request.query)));

  app.post(`${base}/getInfo`, { config: { access: 'lift.get' }, schema: { tags: ['lifts'], response: responsesOf(liftInfoSchema), body: liftIdBodySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    // The page knows before a click which commands wait for a second person.
    return ok({ ...(await liftInfo(sql, request.auth!, lift.id)), approvalClasses: await approvalClassesFor(sql, lift) });
  });

  app.get(`${base}/run/logs/get`, { config: { access: 'lift.get' }, schema: { tags: ['lifts'], response: responsesOf(runLogPageSchema), querystring: runLogQuerySchema } }, async (request) => {
    await ownedLift(sql, request.auth!, request.query.liftId);
    const lang = request.query.lang ?? request.auth!.language;
    return ok(await runLog(sql, request.query, lang));
  });

  app.get(`${base}/run/logs/export`, { config: { access: 'lift.export' }, schema: { tags: ['lifts'], response: fileResponsesOf('text/csv', 'The run log as CSV (UTF-8 with a byte order mark): time, code, meaning, class, floor.'), querystring: runLogQuerySchema } }, async (request, reply) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    const lang = request.query.lang ?? request.auth!.language;
    const { list } = await runLog(sql, request.query, lang, CSV_EXPORT_MAX, 0);
    const csv = csvFile(['time', 'code', 'meaning', 'class', 'floor'], list.map((e) => [e.ts, e.code, e.text, e.fault ? 'fault' : 'state', e.floor ?? '']));
    await app.audit({ action: 'lift.exportLog', result: 'ok', ...actor(request), liftId: lift.id, detail: { rows: list.length } });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="run-log-${lift.device_no ?? lift.id}.csv"`)
      .send(csv);
  });

  app.post(`${base}/alias/update`, { config: { access: 'lift.edit' }, schema: { tags: ['lifts'], response: responsesOf(emptyResultSchema), body: aliasUpdateSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    const before = await replaceLiftField(sql, lift.id, 'alias', request.body.alias);
    await app.audit({ action: 'lift.alias', result: 'ok', ...actor(request), liftId: lift.id, detail: { before, after: request.body.alias } });
    return ok(null, 'modification successful');
  });

  app.post(`${base}/setting/update`, { config: { access: 'lift.edit' }, schema: { tags: ['lifts'], response: responsesOf(emptyResultSchema), body: locationUpdateSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    const before = await replaceLiftField(sql, lift.id, 'location', request.body.location);
    await app.audit({ action: 'lift.location', result: 'ok', ...actor(request), liftId: lift.id, detail: { before, after: request.body.location } });
    return ok(null, 'device information updated successfully');
  });

  app.post(`${base}/iot/update`, { config: { access: 'lift.edit' }, schema: { tags: ['lifts'], response: responsesOf(emptyResultSchema), body: iotUpdateSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    const before = await updateIotInfo(sql, lift.id, request.body.iotInfo, request.auth!);
    await app.audit({ action: 'lift.iotInfo', result: 'ok', ...actor(request), liftId: lift.id, detail: { before, after: request.body.iotInfo } });
    return ok(null, 'device information updated successfully');
  });

  app.post(`${base}/control`, { config: { access: 'liftControl.enable' }, schema: { tags: ['lifts'], response: responsesOf(commandResultSchema), body: controlSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    // Arguments are checked against this lift (its floors) before anything reaches it.
    const parsed = liftCommandSchema(lift.floors).safeParse({ name: request.body.command, args: request.body.args });
    if (!parsed.success) {
      throw new AppError('validation.failed', { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message.startsWith('validation.') ? i.message : 'validation.invalid' })) });
    }
    const { name, args } = parsed.data as { name: string; args: Record<string, unknown> };
    return ok(await sendCommand(app, request, lift, { kind: 'cmd', name, args, payload: { name, args }, ...(request.body.idempotencyKey ? { idempotencyKey: request.body.idempotencyKey } : {}) }));
  });

  app.post(`${base}/config/read`, { config: { access: 'liftConfig.get' }, schema: { tags: ['lifts'], response: responsesOf(configReadResultSchema), body: liftIdBodySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    const result = await sendCommand(app, request, lift, { kind: 'config/get', name: 'configGet', args: {}, payload: {} });
    return ok({ ...result, ...(await storedConfig(sql, lift.id)) });
  });

  app.post(`${base}/run/setting/update`, { config: { access: 'liftConfig.edit' }, schema: { tags: ['lifts'], response: responsesOf(commandResultSchema), body: runSettingUpdateSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    const role = configRoleFor(request.auth!, { manufacturerOrgId: lift.manufacturer_org_id });
    return ok(await writeConfig(app, request, lift, request.body.config, request.body, { role }), 'modification successful');
  });

  app.get(`${base}/config/logs`, { config: { access: 'liftConfig.get' }, schema: { tags: ['lifts'], response: responsesOf(configLogPageSchema), querystring: configLogQuerySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    return ok(await configLogPage(sql, lift.id, request.query));
  });

  app.get(`${base}/commands`, { config: { access: 'lift.get' }, schema: { tags: ['lifts'], response: responsesOf(listOf(commandRecordSchema)), querystring: z.strictObject({ liftId: z.uuid() }) } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    const list = await recentCommands(sql, lift.id);
    return ok({ list });
  });

  app.get(`${base}/stats/daily`, { config: { access: 'lift.get' }, schema: { tags: ['lifts'], response: responsesOf(listOf(dailyStatSchema)), querystring: daysQuerySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    return ok({ list: await dailyStats(sql, lift.id, request.query.days) });
  });

  app.get(`${base}/samples`, { config: { access: 'lift.get' }, schema: { tags: ['lifts'], response: responsesOf(listOf(sampleSchema)), querystring: hoursQuerySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    return ok({ list: await recentSamples(sql, lift.id, request.query.hours) });
  });

  app.get(`${base}/ingest/stats`, { config: { access: 'manufacture.query' }, schema: { tags: ['lifts'], response: responsesOf(ingestStatsSchema) } }, async () => ok(app.ingest.stats()));

  /** The page behind the QR code on a lift: what it is and whom to call; no live data. */
  app.get('/auth/public/qrcode', { config: { access: 'public' }, schema: { tags: ['lifts'], response: responsesOf(qrcodeLiftSchema), querystring: z.strictObject({ deviceNo: deviceNoSchema }) } }, async (request) => {
    const row = await publicLift(sql, request.query.deviceNo);
    if (!row) throw new AppError('lift.notFound');
    return ok({ liftId: row.id, deviceNo: row.device_no, kind: row.kind, floors: row.floors, serviceContact: row.contact || app.config.site.serviceContact, maker: app.config.site.maker });
  });
};

export default liftRoutes;
