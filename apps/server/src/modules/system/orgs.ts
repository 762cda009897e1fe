import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgAssignLiftsSchema, orgCreateSchema, orgUpdateSchema, userIdSchema, type OrgView, responsesOf, emptyResultSchema, listOf, orgViewSchema, orgLiftSchema, createdIdSchema, assignedCountSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';

/** Organizations (manufacturer or operator) and which lifts each operator holds. */
const systemOrgs: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/orgs';
  const actor = (r: { auth: { userId: string; username: string } | null; ip: string }) => ({ userId: r.auth!.userId, username: r.auth!.username, ip: r.ip });

  app.get(base, { config: { access: 'org.query' }, schema: { tags: ['organizations'], response: responsesOf(listOf(orgViewSchema)) } }, async () => {
    const rows = await sql.query<{ id: string; name: string; kind: 'manufacturer' | 'operator'; user_count: string; lift_count: string }>(
      `select o.*, (select count(*) from users u where u.org_id = o.id) as user_count,
              (select count(*) from lifts l where l.operator_org_id = o.id or l.manufacturer_org_id = o.id) as lift_count
         from organizations o order by o.kind, o.name`,
    );
    const list: OrgView[] = rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, userCount: Number(r.user_count), liftCount: Number(r.lift_count) }));
    return ok({ list });
  });

  app.get(`${base}/lifts`, { config: { access: 'org.query' }, schema: { tags: ['organizations'], response: responsesOf(listOf(orgLiftSchema)), querystring: z.strictObject({ orgId: z.uuid('validation.id') }) } }, async (request) => {
    const list = await sql.query<{ id: string; deviceNo: string | null; alias: string; kind: string; assigned: boolean }>(
      `select id, device_no as "deviceNo", alias, kind, (operator_org_id = $1 or manufacturer_org_id = $1) as assigned
         from lifts where operator_org_id = $1 or manufacturer_org_id = $1 order by device_no`,
      [request.query.orgId],
    );
    return ok({ list });
  });

  app.post(`${base}/create`, { config: { access: 'org.add' }, schema: { tags: ['organizations'], response: responsesOf(createdIdSchema), body: orgCreateSchema } }, async (request) => {
    if ((await sql.query('select 1 from organizations where name = $1', [request.body.name])).length) throw new AppError('org.exists');
    const [row] = await sql.query<{ id: string }>('insert into organizations (name, kind) values ($1, $2) returning id', [request.body.name, request.body.kind]);
    await app.audit({ action: 'org.create', result: 'ok', ...actor(request), targetType: 'org', targetId: row!.id, detail: { after: request.body } });
    return ok({ id: row!.id });
  });

  app.post(`${base}/update`, { config: { access: 'org.edit' }, schema: { tags: ['organizations'], response: responsesOf(emptyResultSchema), body: orgUpdateSchema } }, async (request) => {
    const [before] = await sql.query<{ name: string }>('select name from organizations where id = $1', [request.body.id]);
    if (!before) throw new AppError('org.notFound');
    if ((await sql.query('select 1 from organizations where name = $1 and id <> $2', [request.body.name, request.body.id])).length) throw new AppError('org.exists');
    await sql.query('update organizations set name = $2 where id = $1', [request.body.id, request.body.name]);
    await app.audit({ action: 'org.update', result: 'ok', ...actor(request), targetType: 'org', targetId: request.body.id, detail: { before, after: request.body } });
    return ok(null, 'modification successful');
  });

  app.post(`${base}/delete`, { config: { access: 'org.delete' }, schema: { tags: ['organizations'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const id = request.body.id;
    if (!(await sql.query('select 1 from organizations where id = $1', [id])).length) throw new AppError('org.notFound');
    const inUse = await sql.query(
      `select 1 from users where org_id = $1 union all select 1 from lifts where manufacturer_org_id = $1 or operator_org_id = $1 limit 1`,
      [id],
    );
    if (inUse.length) throw new AppError('org.inUse');
    await sql.query('delete from organizations where id = $1', [id]);
    await app.audit({ action: 'org.delete', result: 'ok', ...actor(request), targetType: 'org', targetId: id });
    return ok(null);
  });

  /** Assigns lifts to an operator organization (or takes them back with orgId null). */
  app.post(`${base}/assign-lifts`, { config: { access: 'org.edit' }, schema: { tags: ['organizations'], response: responsesOf(assignedCountSchema), body: orgAssignLiftsSchema } }, async (request) => {
    const { orgId, liftIds } = request.body;
    if (orgId) {
      const [org] = await sql.query<{ kind: string }>('select kind from organizations where id = $1', [orgId]);
      if (!org) throw new AppError('org.notFound');
      if (org.kind !== 'operator') throw new AppError('org.notOperator');
    }
    const found = await sql.query<{ id: string }>('select id from lifts where id = any($1::uuid[])', [liftIds]);
    if (found.length !== new Set(liftIds).size) throw new AppError('lift.notFound');
    await sql.query('update lifts set operator_org_id = $1 where id = any($2::uuid[])', [orgId, liftIds]);
    await app.audit({ action: 'org.assignLifts', result: 'ok', ...actor(request), targetType: 'org', targetId: orgId ?? '', detail: { liftIds } });
    return ok({ assigned: liftIds.length });
  });
};

export default systemOrgs;
