export * from './constants.ts';
export * from './api/envelope.ts';
export * from './api/auth.ts';
export * from './api/admin.ts';
export * from './api/account.ts';
export * from './access/permissions.ts';
export * from './access/routes.ts';
