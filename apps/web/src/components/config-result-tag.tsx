import { Tag } from 'antd';
import { hasKey, tx } from '../lib/i18n/i18n.ts';

/** A configuration log's result in the user's words (also on the factory bench). */
export function ConfigResultTag({ result }: { result: string }) {
  const color = result === 'applied' ? 'green' : 'red';
  const key = `config.history.result.${result}`;
  return <Tag color={color}>{hasKey(key) ? tx(key) : result}</Tag>;
}
