import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** HSTS as helmet's default has it: a year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Whether the browser reached the server over HTTPS: directly (TLS_CERT_FILE), or through a
 * reverse proxy that says so with X-Forwarded-Proto (believed only with TRUST_PROXY=true).
 */
export function servedOverHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/**
 * The headers that only make sense over HTTPS. Over plain HTTP (a LAN trial at
 * http://<machine>:8080, a proxy that does not say it terminated TLS) `upgrade-insecure-requests`
 * would send every script to an https:// address nobody serves, and HSTS would lock the host
 * to HTTPS; so helmet sends neither and this adds them per request when the page came over
 * HTTPS. The rest of the Content-Security-Policy is the same either way.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      if (!servedOverHttps(request)) return;
      reply.raw.setHeader('strict-transport-security', HSTS);
      const csp = reply.raw.getHeader('content-security-policy');
      if (typeof csp === 'string' && !csp.includes('upgrade-insecure-requests')) reply.raw.setHeader('content-security-policy', `${csp};upgrade-insecure-requests`);
    });
  },
  { name: 'tls-headers', dependencies: ['@fastify/helmet'] },
);
