import type { InviteState, InviteView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

type Executor = Pick<SqlExecutor, 'query'>;

/** An invite code with its organization's and role's names, as audit details name it. */
export interface InviteRecord {
  id: string;
  prefix: string;
  orgId: string;
  orgName: string;
  roleId: string;
  roleName: string;
  maxUses: number;
  days: number;
}

const RECORD_COLUMNS = `i.id, i.prefix, i.org_id as "orgId", o.name as "orgName", i.role_id as "roleId", r.name as "roleName",
  i.max_uses as "maxUses", round(extract(epoch from i.expires_at - i.created_at) / 86400)::int as "days"`;
const RECORD_JOIN = 'join organizations o on o.id = i.org_id join roles r on r.id = i.role_id';
/** A code someone may still redeem: not revoked, not expired, not used up. */
const USABLE = 'i.revoked_at is null and i.expires_at > now() and i.uses < i.max_uses';

export async function createInvite(sql: Executor, c: { codeHash: string; prefix: string; orgId: string; roleId: string; days: number; maxUses: number; createdBy: string }): Promise<{ id: string; expiresAt: Date }> {
  const [row] = await sql.query<{ id: string; expires_at: Date }>(
    `insert into org_invites (code_hash, prefix, org_id, role_id, max_uses, expires_at, created_by)
     values ($1, $2, $3, $4, $5, now() + make_interval(days => $6::int), $7) returning id, expires_at`,
    [c.codeHash, c.prefix, c.orgId, c.roleId, c.maxUses, c.days, c.createdBy],
  );
  return { id: row!.id, expiresAt: new Date(row!.expires_at) };
}

/** Every invite code, newest first, with its state. */
export async function listInvites(sql: Executor): Promise<InviteView[]> {
  const rows = await sql.query<{ id: string; prefix: string; org_id: string; org_name: string; role_id: string; role_name: string; max_uses: number; uses: number; expires_at: Date; created_at: Date; created_by: string | null; state: InviteState }>(
    `select i.*, o.name as org_name, r.name as role_name, u.username as created_by,
            case when i.revoked_at is not null then 'revoked' when i.uses >= i.max_uses then 'usedUp'
                 when i.expires_at <= now() then 'expired' else 'active' end as state
       from org_invites i ${RECORD_JOIN} left join users u on u.id = i.created_by
      order by i.created_at desc, i.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    prefix: r.prefix,
    organization: { id: r.org_id, name: r.org_name },
    role: { id: r.role_id, name: r.role_name },
    maxUses: r.max_uses,
    uses: r.uses,
    expiresAt: new Date(r.expires_at).toISOString(),
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.created_by,
    state: r.state,
  }));
}

export async function findInvite(sql: Executor, id: string): Promise<InviteRecord | undefined> {
  const [row] = await sql.query<InviteRecord>(`select ${RECORD_COLUMNS} from org_invites i ${RECORD_JOIN} where i.id = $1`, [id]);
  return row;
}

/** Revokes a code that is not revoked yet; false when it already was. */
export async function revokeInvite(sql: Executor, id: string): Promise<boolean> {
  const rows = await sql.query('update org_invites set revoked_at = now() where id = $1 and revoked_at is null returning id', [id]);
  return rows.length > 0;
}

/** The code this hash names, when it may still be redeemed (looks, counts nothing). */
export async function findUsableInvite(sql: Executor, codeHash: string): Promise<InviteRecord | undefined> {
  const [row] = await sql.query<InviteRecord>(`select ${RECORD_COLUMNS} from org_invites i ${RECORD_JOIN} where i.code_hash = $1 and ${USABLE}`, [codeHash]);
  return row;
}

/**
 * Counts one use of the code, in one statement that checks it may still be used: however
 * many redeem at once, `uses` never passes `max_uses`. Undefined: the code is not (or no
 * longer) usable and nothing changed.
 */
export async function redeemInvite(sql: Executor, codeHash: string): Promise<InviteRecord | undefined> {
  const [row] = await sql.query<{ id: string }>(
    `update org_invites i set uses = uses + 1 where i.code_hash = $1 and ${USABLE} returning i.id`,
    [codeHash],
  );
  return row ? findInvite(sql, row.id) : undefined;
}
