import { DEFAULT_APPROVAL_CLASSES, type CommandClass } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

type Executor = Pick<SqlExecutor, 'query'>;

/**
 * An organization's choice of the command classes under two-person approval
 * (`organizations.approval_classes`, migration 0016; the control module's
 * `approvalClassesFor` reads the same column for a lift). Undefined: no such organization.
 */
export async function orgApprovalClasses(sql: Executor, orgId: string): Promise<{ name: string; approvalClasses: CommandClass[] } | undefined> {
  const [row] = await sql.query<{ name: string; approval_classes: CommandClass[] | null }>(`select name, approval_classes from organizations where id = $1`, [orgId]);
  return row ? { name: row.name, approvalClasses: row.approval_classes ?? [...DEFAULT_APPROVAL_CLASSES] } : undefined;
}

export async function setOrgApprovalClasses(sql: Executor, orgId: string, classes: readonly CommandClass[]): Promise<void> {
  await sql.query(`update organizations set approval_classes = $2::jsonb where id = $1`, [orgId, JSON.stringify(classes)]);
}
