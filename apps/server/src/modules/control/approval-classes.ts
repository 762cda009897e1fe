import { DEFAULT_APPROVAL_CLASSES, type CommandClass } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/**
 * The command classes under two-person approval on a lift (docs/remote-control.md): its
 * operator organization decides, or its maker while it has no operator.
 */
export async function approvalClassesFor(sql: Pick<SqlExecutor, 'query'>, lift: { operator_org_id: string | null; manufacturer_org_id: string }): Promise<CommandClass[]> {
  const [org] = await sql.query<{ approval_classes: CommandClass[] }>(`select approval_classes from organizations where id = $1`, [lift.operator_org_id ?? lift.manufacturer_org_id]);
  return org ? org.approval_classes : [...DEFAULT_APPROVAL_CLASSES];
}
