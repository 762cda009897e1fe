import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE } from '@liftlink/protocol';
import { newToken } from '../../lib/crypto.ts';
import { servedOverHttps } from '../../plugins/tls-headers.ts';

/** `Secure` cookies when the public address is https, or this request came over HTTPS (direct TLS, or a proxy that says so). */
export function secureCookies(request: FastifyRequest): boolean {
  return request.server.config.publicUrl.startsWith('https:') || servedOverHttps(request);
}

/** True when the request carries the CSRF cookie. */
export function hasCsrfCookie(request: FastifyRequest): boolean {
  return request.cookies[CSRF_COOKIE] !== undefined;
}

/**
 * Sets the CSRF cookie (spec section 7): the browser's own token again, or a new one. Sent by
 * GET /auth/Hi and with the web client's page, so that a first visit needs no extra call and
 * reload.
 */
export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  const token = request.cookies[CSRF_COOKIE] ?? newToken();
  reply.setCookie(CSRF_COOKIE, token, { path: '/', sameSite: 'lax', httpOnly: false, secure: secureCookies(request) });
}
