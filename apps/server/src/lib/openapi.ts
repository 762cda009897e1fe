import type { FastifyInstance } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@liftlink/protocol';

/** Shapes the document holds once and every operation references: the error envelope. */
export const openApiSchemas = {
  ErrorEnvelope: (({ $schema: _, ...schema }) => schema)(z.toJSONSchema(errorEnvelopeSchema, { target: 'openapi-3.0' })),
};
const errorResponse = {
  description: errorEnvelopeSchema.description ?? 'An error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

/**
 * What a route needs, as the OpenAPI document states it: `public`, `authenticated` (any
 * signed-in user) or the `permissionId.action` the route declares in `config.access`.
 */
export function accessOf(access: unknown): string | null {
  if (typeof access === 'string') return access;
  // A structured declaration names its permission (and perhaps a scope) in fields.
  if (access && typeof access === 'object' && 'permission' in access && typeof access.permission === 'string') return access.permission;
  return null;
}

function accessLine(access: string | null): string {
  if (access === 'public') return 'Public: no sign-in needed.';
  if (access === 'authenticated') return 'Any signed-in user.';
  if (access) return `Permission: \`${access}\`.`;
  return 'Access: not declared.';
}

/**
 * Turns the zod schemas of a route into OpenAPI and adds what the route needs:
 * `x-permission` and a first line of the description, no security requirement for a
 * public route.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input) as { schema: Record<string, unknown> | undefined; url: string };
  const out: Record<string, unknown> = { ...schema };
  if (out.hide) return { schema: out, url };
  // The error envelope is referenced, not repeated in every operation.
  const given = (input.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
  const response = out.response as Record<string, unknown> | undefined;
  for (const code of Object.keys(given)) if (given[code] === errorEnvelopeSchema && response) response[code] = errorResponse;
  const access = accessOf(input.route.config?.access);
  out['x-permission'] = access ?? 'undeclared';
  out.description = [accessLine(access), typeof out.description === 'string' ? out.description : ''].filter(Boolean).join('\n\n');
  if (access === 'public') out.security = [];
  return { schema: out, url };
};

/** The OpenAPI document as `docs/openapi.json` holds it (`npm run docs:api` writes it). */
export function openApiText(app: FastifyInstance): string {
  return JSON.stringify(app.swagger(), null, 2) + '\n';
}
