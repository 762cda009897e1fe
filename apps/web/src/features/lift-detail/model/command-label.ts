import { tx } from '../../../lib/i18n/i18n.ts';

/** The text of a command with its arguments ("Summon to floor 2"). */
export function commandLabel(name: string, args: Record<string, unknown>): string {
  switch (name) {
    case 'summon':
      return tx('command.summon.to', { floor: args.floor });
    case 'deform':
      return tx(`command.deform.${String(args.shape)}`);
    case 'aging':
      return tx(`command.aging.${String(args.target)}`);
    case 'test':
      return tx(`command.test.${String(args.item)}`);
    case 'lock':
    case 'disable':
      return tx(`command.${name}.${args.on ? 'on' : 'off'}`);
    default:
      return tx(`command.${name}`);
  }
}
