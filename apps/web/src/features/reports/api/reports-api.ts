import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReportGenerateRequest,
  ReportList,
  ReportTargets,
  ReportView,
} from '@liftlink/protocol';
import { downloadFile } from '../../../lib/download.ts';
import { http } from '../../../lib/http.ts';

export type { ReportView };

/** Scheduled reports (packages/protocol/src/api/reports.ts, docs/reports.md). */
export const REPORTS_BASE = '/auth/access/dashboard/reports';
const base = REPORTS_BASE;

export const reportKeys = {
  all: ['reports'] as const,
  list: ['reports', 'list'] as const,
  targets: ['reports', 'targets'] as const,
};

export const reportsApi = {
  list: (signal?: AbortSignal) => http.get<ReportList>(base, undefined, { signal }),
  targets: (signal?: AbortSignal) =>
    http.get<ReportTargets>(`${base}/targets`, undefined, { signal }),
  generate: (body: ReportGenerateRequest) => http.post<ReportView>(`${base}/generate`, body),
  /** Saves the report's PDF or CSV under the server's file name. */
  download: (report: ReportView, format: 'pdf' | 'csv') =>
    downloadFile(`${base}/${format}`, { id: report.id }, `report-${report.month}.${format}`),
};

export function useReports() {
  return useQuery({ queryKey: reportKeys.list, queryFn: ({ signal }) => reportsApi.list(signal) });
}

/** The organizations (and their sites) the user may build reports of. */
export function useReportTargets() {
  return useQuery({
    queryKey: reportKeys.targets,
    queryFn: ({ signal }) => reportsApi.targets(signal),
    staleTime: 60_000,
  });
}

export function useGenerateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reportsApi.generate,
    onSuccess: () => client.invalidateQueries({ queryKey: reportKeys.list }),
  });
}
