import type { DocumentView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

interface DocumentRow {
  id: string;
  name: string;
  kind: DocumentView['kind'];
  device_kind: DocumentView['deviceKind'];
  content_type: string;
  size: number;
  seed_key: string | null;
  uploaded_by: string | null;
  created_at: Date;
}

const toView = (r: DocumentRow): DocumentView => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  deviceKind: r.device_kind,
  contentType: r.content_type,
  size: r.size,
  builtIn: r.seed_key !== null,
  uploadedBy: r.uploaded_by,
  createdAt: new Date(r.created_at).toISOString(),
});

const VIEW_COLUMNS = 'id, name, kind, device_kind, content_type, size, seed_key, uploaded_by, created_at';

/** The stored documents, of one kind or all, by kind and name. */
export async function listDocuments(sql: SqlExecutor, kind: DocumentView['kind'] | null): Promise<DocumentView[]> {
  const rows = await sql.query<DocumentRow>(`select ${VIEW_COLUMNS} from documents where deleted_at is null and ($1::text is null or kind = $1) order by kind, name`, [kind]);
  return rows.map(toView);
}

/** A document's bytes with its name and type, unless deleted. */
export async function documentFile(sql: SqlExecutor, id: string): Promise<{ name: string; content_type: string; data: Uint8Array } | null> {
  const [row] = await sql.query<{ name: string; content_type: string; data: Uint8Array }>(`select name, content_type, data from documents where id = $1 and deleted_at is null`, [id]);
  return row ?? null;
}

export async function insertDocument(sql: SqlExecutor, d: { name: string; kind: DocumentView['kind']; deviceKind: DocumentView['deviceKind']; contentType: string; sha256: string; data: Buffer; uploadedBy: string }): Promise<DocumentView> {
  const [row] = await sql.query<DocumentRow>(
    `insert into documents (name, kind, device_kind, content_type, size, sha256, data, uploaded_by) values ($1, $2, $3, $4, $5, $6, $7, $8)
     returning ${VIEW_COLUMNS}`,
    [d.name, d.kind, d.deviceKind, d.contentType, d.data.length, d.sha256, d.data, d.uploadedBy],
  );
  return toView(row!);
}

/** Marks a document deleted and drops its bytes; returns its name, or null when there was none. */
export async function deleteDocument(sql: SqlExecutor, id: string): Promise<{ name: string } | null> {
  const [row] = await sql.query<{ name: string }>(`update documents set deleted_at = now(), data = ''::bytea where id = $1 and deleted_at is null returning name`, [id]);
  return row ?? null;
}
