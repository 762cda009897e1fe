import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyError } from 'fastify';
import { AppError, fail } from '../lib/errors.ts';

/**
 * Every error becomes the envelope with a stable code and the right HTTP status.
 * Field errors of a failed validation carry i18n keys the web client translates.
 */
export default fp(async (app) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).headers(err.headers).send(fail(err.code, err.result, err.message));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: `${err.validationContext ?? 'body'}${v.instancePath.replaceAll('/', '.')}`.replace(/^body\./, ''),
        // Field messages are i18n keys from the shared schemas; anything else is generic.
        message: v.message?.startsWith('validation.') ? v.message : 'validation.invalid',
      }));
      return reply.code(400).send(fail('validation.failed', { issues }));
    }
    if (err.validation) {
      return reply.code(400).send(fail('validation.failed', { issues: [{ path: err.validationContext ?? 'body', message: 'validation.invalid' }] }));
    }
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send(fail('request.malformed'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send(fail('request.tooLarge'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(400).send(fail('request.malformed', null, err.message));
    }
    if (err.statusCode === 429) return reply.code(429).send(fail('rateLimited'));
    if (err instanceof SyntaxError || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      return reply.code(err.statusCode ?? 400).send(fail('request.malformed', null, err.message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(fail('internal'));
  });
});
