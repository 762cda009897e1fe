import { hasKey, tx } from './i18n/i18n.ts';

/** Built-in role names are translated; names an administrator typed are shown as typed. */
export function roleLabel(name: string): string {
  return hasKey(`role.builtIn.${name}`) ? tx(`role.builtIn.${name}`) : name;
}
