import { useQuery } from '@tanstack/react-query';
import type { QrcodeLift } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/** `GET /auth/public/qrcode?deviceNo=`: what a person who scanned a lift's code may see. */
export type { QrcodeLift };

export function useQrcodeLift(deviceNo: string) {
  return useQuery({
    queryKey: ['public', 'qrcode', deviceNo],
    queryFn: ({ signal }) =>
      http.get<QrcodeLift>('/auth/public/qrcode', { deviceNo }, { signal, quiet: true }),
    enabled: deviceNo.length > 0,
    retry: false,
  });
}
