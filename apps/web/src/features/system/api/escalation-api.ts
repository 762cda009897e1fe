import { useQuery } from '@tanstack/react-query';
import type { EscalationPolicy, EscalationPolicyUpdate } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { useSystemMutation } from './system-api.ts';

const base = '/auth/access/system/orgs/escalation';

/** An organization's on-call list (docs/service.md, "Escalation"): read with `org.query`, saved with `org.edit`. */
export const escalationApi = {
  policy: (orgId: string, signal?: AbortSignal) =>
    http.get<EscalationPolicy>(base, { orgId }, { signal }),
  update: (body: EscalationPolicyUpdate) => http.post<EscalationPolicy>(`${base}/update`, body),
};

export const escalationKeys = {
  policy: (orgId: string) => ['system', 'orgs', orgId, 'escalation'] as const,
};

export function useOrgEscalation(orgId: string | null) {
  return useQuery({
    queryKey: escalationKeys.policy(orgId ?? ''),
    queryFn: ({ signal }) => escalationApi.policy(orgId ?? '', signal),
    enabled: orgId !== null,
  });
}

/** Saving refreshes the organizations' queries (the policy is read again). */
export function useUpdateEscalation() {
  return useSystemMutation(escalationApi.update);
}
