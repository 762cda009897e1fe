import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandCancelSchema, commandResultSchema, leaseHolderSchema, leaseQuerySchema, leaseStateSchema, leaseTakeSchema, responsesOf } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { authorize, reaches } from '../access/policy.ts';
import { ownedLift } from '../lifts/scope.ts';
import { cancelCommand } from '../commands/cancel.ts';
import { readLease, releaseLease, renewLease, takeLease } from './lease-service.ts';

/**
 * Safe remote control over HTTP (docs/remote-control.md): the lift's control lease, and
 * cancelling a command in its cancel window. Every route names a lift the route's grant must
 * reach (else 404, as for every lift route).
 */
const controlRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/lift';
  const caller = (r: { auth: { userId: string; username: string } | null; ip: string }) => ({ userId: r.auth!.userId, username: r.auth!.username, ip: r.ip });

  // Everyone watching the lift sees who controls it (docs/remote-control.md), not only those who may.
  app.get(`${base}/lease`, { config: { access: 'lift.get' }, schema: { tags: ['control'], response: responsesOf(leaseStateSchema), querystring: leaseQuerySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    return ok(await readLease(app, lift.id));
  });

  app.post(`${base}/lease/take`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(leaseStateSchema), body: leaseTakeSchema } }, async (request) => {
    const auth = request.auth!;
    const lift = await ownedLift(sql, auth, request.body.liftId);
    // Taking over another's lease is a second permission, in a scope that reaches this lift.
    if (request.body.takeOver && !reaches(authorize(auth, 'liftControl.edit'), { operatorOrgId: lift.operator_org_id, manufacturerOrgId: lift.manufacturer_org_id })) {
      await app.audit({ action: 'access.denied', result: 'denied', userId: auth.userId, username: auth.username, ip: request.ip, liftId: lift.id, detail: { method: request.method, url: request.routeOptions.url, needs: 'liftControl.edit' } });
      throw new AppError('forbidden', { needs: 'liftControl.edit' });
    }
    return ok(await takeLease(app, caller(request), lift.id, request.body.takeOver));
  });

  app.post(`${base}/lease/renew`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(leaseStateSchema), body: leaseHolderSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    return ok(await renewLease(app, caller(request), lift.id, request.body.epoch));
  });

  app.post(`${base}/lease/release`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(leaseStateSchema), body: leaseHolderSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    return ok(await releaseLease(app, caller(request), lift.id, request.body.epoch));
  });

  app.post(`${base}/command/cancel`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(commandResultSchema), body: commandCancelSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    return ok(await cancelCommand(app, request, lift, request.body.idempotencyKey));
  });
};

export default controlRoutes;
