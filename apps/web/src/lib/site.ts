import { useQuery } from '@tanstack/react-query';
import type { SignInProvider } from '@liftlink/protocol';
import { http } from './http.ts';
import { tx } from './i18n/i18n.ts';

/** `GET /auth/public/site`: names and lines of the login layout (the protocol has no type for it yet). */
export interface SiteInfo {
  productName: string;
  maker: string;
  version: string;
  copyright: string;
  filingNumber: string;
  /** Who to ask for help (SITE_SERVICE_CONTACT); may be empty. */
  serviceContact: string;
  /** The other sign-in providers (OpenID Connect), one button each. */
  providers: SignInProvider[];
}

export const FALLBACK_SITE: SiteInfo = {
  productName: 'LiftLink',
  maker: '',
  version: '1.0',
  copyright: '',
  filingNumber: '',
  serviceContact: '',
  providers: [],
};

export function useSiteInfo(): SiteInfo {
  const { data } = useQuery({
    queryKey: ['public', 'site'],
    queryFn: ({ signal }) =>
      http.get<Partial<SiteInfo>>('/auth/public/site', undefined, { signal, quiet: true }),
    staleTime: Infinity,
    retry: 1,
  });
  return {
    ...FALLBACK_SITE,
    ...data,
    providers: Array.isArray(data?.providers) ? data.providers : [],
  };
}

/** The footer's copyright line: the configured one, else "Copyright (c) year maker". */
export function copyrightLine(site: SiteInfo): string {
  return (
    site.copyright ||
    tx('layout.copyright', {
      year: new Date().getFullYear(),
      maker: site.maker || site.productName,
    })
  );
}
