import { BUILT_IN_ROLES } from '@liftlink/protocol';
import { hashPassword } from '../lib/passwords.ts';
import { strongPassword } from '../lib/crypto.ts';
import type { Database } from './client.ts';

export interface SeedResult {
  adminCreated: boolean;
  generatedPassword: string | undefined;
  makerOrgId: string;
}

/**
 * First-start data: the built-in roles, the maker's organization and the administrator.
 * Idempotent, so every start runs it; with no password given one is generated and
 * returned once for printing. There is no default password anywhere.
 */
export async function seed(database: Database, opts: { adminUser: string; adminPassword?: string | undefined; makerName: string }): Promise<SeedResult> {
  const { sql } = database;
  for (const [name, role] of Object.entries(BUILT_IN_ROLES)) {
    await sql.query(
      `insert into roles (name, role_type, built_in, permissions) values ($1, $2, true, $3::jsonb) on conflict (name) do nothing`,
      [name, role.roleType, JSON.stringify(role.permissions)],
    );
  }
  await sql.query(
    `insert into organizations (name, kind) select $1, 'manufacturer' where not exists (select 1 from organizations where kind = 'manufacturer')`,
    [opts.makerName],
  );
  const [maker] = await sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
  const existing = await sql.query(`select 1 from users where lower(username) = lower($1)`, [opts.adminUser]);
  let generatedPassword: string | undefined;
  if (existing.length === 0) {
    const password = opts.adminPassword ?? (generatedPassword = strongPassword());
    const [role] = await sql.query<{ id: string }>(`select id from roles where name = 'administrator'`);
    await sql.query(
      `insert into users (username, name, password_hash, role_id, org_id, status) values ($1, $2, $3, $4, $5, 'active') on conflict do nothing`,
      [opts.adminUser, 'Administrator', await hashPassword(password), role!.id, maker!.id],
    );
  }
  return { adminCreated: existing.length === 0, generatedPassword, makerOrgId: maker!.id };
}
