import { useQuery } from '@tanstack/react-query';
import type { BackupInfo } from '@liftlink/protocol';
import { downloadFile } from '../../../lib/download.ts';
import { http } from '../../../lib/http.ts';

export const BACKUP_PATH = '/auth/access/system/backup';

/** What a backup holds now, and whether the server writes it (embedded database). */
export function useBackupInfo() {
  return useQuery({
    queryKey: ['system', 'backup'],
    queryFn: ({ signal }) => http.get<BackupInfo>(`${BACKUP_PATH}/info`, undefined, { signal }),
  });
}

/** Downloads a backup of the embedded database (the server names the file). */
export function downloadBackup(): Promise<void> {
  return downloadFile(BACKUP_PATH, {}, 'liftlink.llbackup');
}
