import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/** `GET /auth/public/qrcode?deviceNo=`: what a person who scanned a lift's code may see. */
export interface QrcodeLift {
  id: string;
  deviceNo: string;
  kind: string;
  alias?: string | null;
  serviceContact?: { name?: string | null; phone?: string | null; email?: string | null } | null;
}

export function useQrcodeLift(deviceNo: string) {
  return useQuery({
    queryKey: ['public', 'qrcode', deviceNo],
    queryFn: ({ signal }) =>
      http.get<QrcodeLift>('/auth/public/qrcode', { deviceNo }, { signal, quiet: true }),
    enabled: deviceNo.length > 0,
    retry: false,
  });
}
