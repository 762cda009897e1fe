import type { CSSProperties, HTMLAttributes, Key, ReactNode } from 'react';
import { Empty } from 'antd';

/**
 * A list of rows with dividers (antd's List is deprecated in antd 6.6 and its successor is
 * a virtual list without row layout; these lists are short).
 */
export function PlainList<T>({
  items,
  rowKey,
  renderItem,
  emptyText,
  header,
  style,
  rowProps,
}: {
  items: readonly T[];
  rowKey: (item: T) => Key;
  renderItem: (item: T) => ReactNode;
  emptyText?: ReactNode;
  header?: ReactNode;
  style?: CSSProperties;
  rowProps?: (item: T) => HTMLAttributes<HTMLLIElement> & Record<`data-${string}`, string>;
}) {
  return (
    <div style={style}>
      {header ? (
        <div style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}>{header}</div>
      ) : null}
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item) => (
            <li
              key={rowKey(item)}
              {...rowProps?.(item)}
              style={{
                padding: '8px 4px',
                borderBottom: '1px solid #f0f0f0',
                minWidth: 0,
                ...rowProps?.(item).style,
              }}
            >
              {renderItem(item)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
