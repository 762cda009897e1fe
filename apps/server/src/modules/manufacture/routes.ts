import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  configField,
  configLogQuerySchema,
  defaultConfig,
  liftLookupQuerySchema,
  liftRefQuerySchema,
  manufactureConfigSchema,
  pairVerifySchema,
  resetIotSchema,
  serialLogSchema,
  updateLiftIotInfoSchema,
  type ApiCode,
  type AuditAction,
  type LiftConfig,
  type NewIotCredentials,
  responsesOf,
  emptyResultSchema,
  liftLookupResultSchema,
  liftIotInfoResultSchema,
  newIotCredentialsSchema,
  commandResultSchema,
  configLogPageSchema,
  pairingCodeResultSchema,
  pairVerifyResultSchema,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { safeEqual } from '../../lib/crypto.ts';
import { configLogPage, writeConfig, type ConfigWrite } from '../lifts/config-service.ts';
import type { OwnedLift } from '../lifts/scope.ts';
import { deviceBrokerUrl } from './device-broker-url.ts';
import { createPairingCode, verifyPairingCode } from './pairing.ts';
import { insertLift, updateRegistration } from './repository.ts';
import { benchLift, findLift, makerOrgOf, toBenchView, type BenchLiftRow } from './scope.ts';

/** A bench step that the server audits as `manufacture.<step>`. */
type BenchStep = AuditAction extends infer A ? (A extends `manufacture.${infer S}` ? S : never) : never;

/**
 * The factory bench (spec section 7, `/manufacture/...`): register a controller under a
 * device number, issue and revoke its IoT credentials, configure it, read its
 * configuration log, and pair the serial bridge. Every route checks a `manufacture.*`
 * permission and that the lift is made by the caller's organization; every step is
 * audited, refusals included. Secrets never reach the audit log.
 */
const manufactureRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/manufacture/lift';
  const who = (r: FastifyRequest) => ({ userId: r.auth!.userId, username: r.auth!.username, ip: r.ip });

  /** Runs a step and audits it, ok or failed with the error's code. */
  async function audited<T>(request: FastifyRequest, action: BenchStep, target: { liftId?: string | null; deviceNo?: string | null; detail?: Record<string, unknown> }, step: () => Promise<T>): Promise<T> {
    const entry = { action: `manufacture.${action}` as const, ...who(request), targetType: 'lift', ...(target.deviceNo ? { targetId: target.deviceNo } : {}), liftId: target.liftId ?? null };
    try {
      const result = await step();
      const liftId = (result as { liftId?: string } | null)?.liftId ?? target.liftId ?? null;
      await app.audit({ ...entry, liftId, result: 'ok', detail: target.detail ?? {} });
      return result;
    } catch (err) {
      const code: ApiCode | 'internal' = err instanceof AppError ? err.code : 'internal';
      await app.audit({ ...entry, result: err instanceof AppError && err.status === 403 ? 'denied' : 'failed', detail: { ...target.detail, code } });
      throw err;
    }
  }

  /** A state-changing GET (getNewIot, as the spec has it) needs the CSRF header like a POST when signed in by cookie. */
  function requireCsrf(request: FastifyRequest): void {
    if (!request.auth?.viaCookie) return;
    const header = request.headers[CSRF_HEADER];
    const cookie = request.cookies[CSRF_COOKIE];
    if (typeof header !== 'string' || !cookie || !safeEqual(header, cookie)) throw new AppError('csrf.invalid');
  }

  const asOwned = (l: BenchLiftRow): OwnedLift => ({ id: l.id, device_no: l.device_no, kind: l.kind, floors: l.floors, online: l.online, config: l.config, config_version: l.config_version, firmware: l.firmware, manufacturer_org_id: l.manufacturer_org_id, operator_org_id: l.operator_org_id });

  app.get(`${base}/lookup`, { config: { access: 'manufacture.query' }, schema: { tags: ['manufacture'], response: responsesOf(liftLookupResultSchema), querystring: liftLookupQuerySchema } }, async (request) => {
    const { deviceNo, controllerSerial } = request.query;
    const byNo = deviceNo ? await findLift(sql, request.auth!, 'device_no', deviceNo) : null;
    const bySerial = controllerSerial ? await findLift(sql, request.auth!, 'controller_serial', controllerSerial) : null;
    const lift = [byNo, bySerial].find((l) => l?.visible) ?? null;
    return ok({ lift: lift ? toBenchView(lift) : null, deviceNoTaken: !!byNo && byNo.controller_serial !== (controllerSerial ?? null) });
  });

  app.post(`${base}/updateLiftIotInfo`, { config: { access: 'manufacture.edit' }, schema: { tags: ['manufacture'], response: responsesOf(liftIotInfoResultSchema), body: updateLiftIotInfoSchema } }, async (request) => {
    const auth = request.auth!;
    const b = request.body;
    const detail = { mode: b.mode, kind: b.kind, floors: b.floors, firmware: b.firmware, controllerSerial: b.controllerSerial };
    const result = await audited(request, b.mode === 'assign' ? 'assignDeviceNo' : 'updateIotInfo', { deviceNo: b.deviceNo, detail }, async () => {
      const byNo = await findLift(sql, auth, 'device_no', b.deviceNo);
      const bySerial = await findLift(sql, auth, 'controller_serial', b.controllerSerial);
      let liftId: string;
      if (b.mode === 'update') {
        // The controller says it is b.deviceNo: that record must be this controller's.
        if (!byNo) throw new AppError('lift.notFound');
        if (!byNo.visible || (byNo.controller_serial !== null && byNo.controller_serial !== b.controllerSerial)) throw new AppError('lift.mismatch', { deviceNo: b.deviceNo });
        if (bySerial && bySerial.id !== byNo.id) throw new AppError('lift.mismatch', { deviceNo: bySerial.device_no });
        liftId = byNo.id;
      } else if (byNo) {
        // Assigning a number that is taken: fine only for the very controller that holds it.
        if (!byNo.visible || byNo.controller_serial !== b.controllerSerial) throw new AppError('lift.registered', { deviceNo: b.deviceNo });
        liftId = byNo.id;
      } else if (bySerial) {
        // The controller is registered already: under another number, or (a record made without one) under none.
        if (!bySerial.visible || bySerial.device_no !== null) throw new AppError('lift.registered', { deviceNo: bySerial.visible ? bySerial.device_no : null });
        liftId = bySerial.id;
      } else {
        const created = await insertLift(sql, b, await makerOrgOf(sql, auth), auth.username);
        // Two benches racing for one number: the loser hears it is registered.
        if (!created) throw new AppError('lift.registered', { deviceNo: b.deviceNo });
        liftId = created;
      }
      await updateRegistration(sql, liftId, b, auth.username);
      return { liftId, lift: toBenchView(await benchLift(sql, auth, { liftId })) };
    });
    return ok(result, 'device information updated successfully');
  });

  app.get(`${base}/getNewIot`, { config: { access: 'manufacture.add' }, schema: { tags: ['manufacture'], response: responsesOf(newIotCredentialsSchema), querystring: liftRefQuerySchema } }, async (request, reply) => {
    requireCsrf(request);
    const lift = await benchLift(sql, request.auth!, request.query);
    const issued = await audited(request, 'issueIot', { liftId: lift.id, deviceNo: lift.device_no }, () => app.deviceCredentials.issue(lift.id, { id: request.auth!.userId, name: request.auth!.username }));
    const result: NewIotCredentials = { liftId: lift.id, deviceNo: issued.deviceNo, secret: issued.secret, mqttUrl: deviceBrokerUrl(app), issuedAt: new Date().toISOString() };
    // The secret is shown once: no cache may keep it.
    void reply.header('cache-control', 'no-store');
    return ok(result);
  });

  app.post(`${base}/resetIot`, { config: { access: 'manufacture.delete' }, schema: { tags: ['manufacture'], response: responsesOf(emptyResultSchema), body: resetIotSchema } }, async (request) => {
    const lift = await benchLift(sql, request.auth!, request.body);
    await audited(request, 'resetIot', { liftId: lift.id, deviceNo: lift.device_no }, () => app.deviceCredentials.revoke(lift.id, { id: request.auth!.userId, name: request.auth!.username }));
    return ok(null, 'modification successful');
  });

  /** Writes a whole configuration through the one configuration service, audited as the bench step. */
  function configure(request: FastifyRequest, lift: BenchLiftRow, next: LiftConfig, write: ConfigWrite, action: 'setLiftConfig' | 'runConfig') {
    return audited(request, action, { liftId: lift.id, deviceNo: lift.device_no, detail: { version: write.version } }, () => writeConfig(app, request, asOwned(lift), next, write, { source: action }));
  }

  app.post(`${base}/setLiftConfig`, { config: { access: 'manufacture.edit' }, schema: { tags: ['manufacture'], response: responsesOf(commandResultSchema), body: manufactureConfigSchema } }, async (request) => {
    const lift = await benchLift(sql, request.auth!, request.body);
    return ok(await configure(request, lift, request.body.config, request.body, 'setLiftConfig'), 'modification successful');
  });

  app.post(`${base}/run/config/set`, { config: { access: 'manufacture.edit' }, schema: { tags: ['manufacture'], response: responsesOf(commandResultSchema), body: manufactureConfigSchema } }, async (request) => {
    const lift = await benchLift(sql, request.auth!, request.body);
    const { config } = request.body;
    // Only the run settings change here; every other field keeps the lift's value.
    const notRun = Object.keys(config).filter((k) => configField(k)?.part !== 'run');
    if (notRun.length) throw new AppError('validation.failed', { issues: notRun.map((k) => ({ path: `config.${k}`, message: 'validation.unknownField' })) });
    const current = lift.config ?? defaultConfig(lift.kind, lift.floors);
    return ok(await configure(request, lift, { ...current, ...config }, request.body, 'runConfig'), 'modification successful');
  });

  app.get(`${base}/getConfigLogs`, { config: { access: 'manufacture.query' }, schema: { tags: ['manufacture'], response: responsesOf(configLogPageSchema), querystring: configLogQuerySchema } }, async (request) => {
    const lift = await benchLift(sql, request.auth!, { liftId: request.query.liftId });
    return ok(await configLogPage(sql, lift.id, request.query));
  });

  /** The page reports what it did over the serial cable, so the bench's serial steps are audited too. */
  app.post(`${base}/serial/log`, { config: { access: 'manufacture.query' }, schema: { tags: ['manufacture'], response: responsesOf(emptyResultSchema), body: serialLogSchema } }, async (request) => {
    const b = request.body;
    const lift = b.deviceNo ? await findLift(sql, request.auth!, 'device_no', b.deviceNo) : await findLift(sql, request.auth!, 'controller_serial', b.controllerSerial);
    const detail = JSON.stringify(b.detail ?? {});
    await app.audit({
      action: `manufacture.serial.${b.step}`,
      result: b.result,
      ...who(request),
      targetType: 'controller',
      targetId: b.controllerSerial,
      liftId: lift?.visible ? lift.id : null,
      detail: { deviceNo: b.deviceNo, ...(detail.length <= 8_000 ? b.detail : { truncated: true }) },
    });
    return ok(null);
  });

  app.post('/manufacture/bridge/pair', { config: { access: 'manufacture.query' }, schema: { tags: ['manufacture'], response: responsesOf(pairingCodeResultSchema) } }, async (request) => {
    const code = await createPairingCode(sql, request.auth!);
    await app.audit({ action: 'manufacture.bridgePairCode', result: 'ok', ...who(request), detail: { expiresAt: code.expiresAt } });
    return ok(code);
  });

  /** Called by the bridge (no session): spends the code once. Rate-limited per address. */
  app.post(
    '/manufacture/bridge/pair/verify',
    // its own key, so a shared (PostgreSQL) store counts these apart from the global limit
    { config: { access: 'public', rateLimit: { max: 10, timeWindow: 60_000, keyGenerator: (r: FastifyRequest) => `bridge-verify:${r.ip}` } }, schema: { tags: ['manufacture'], response: responsesOf(pairVerifyResultSchema), body: pairVerifySchema } },
    async (request) => {
      const user = await verifyPairingCode(sql, request.body.code, request.ip);
      await app.audit({ action: 'manufacture.bridgePaired', result: user ? 'ok' : 'failed', userId: user?.userId ?? null, username: user?.username ?? null, ip: request.ip });
      if (!user) throw new AppError('auth.tokenInvalid');
      return ok({ user: user.username });
    },
  );
};

export default manufactureRoutes;
