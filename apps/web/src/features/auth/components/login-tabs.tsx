import type { KeyboardEvent } from 'react';

/**
 * The two sign-in tabs. A small tab strip of its own: antd's Tabs (with its overflow menu)
 * would add a fifth to the sign-in page's JavaScript. Arrow keys move between the tabs.
 */
export function LoginTabs<K extends string>({
  items,
  active,
  onChange,
}: {
  items: { key: K; label: string }[];
  active: K;
  onChange: (key: K) => void;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const index = items.findIndex((item) => item.key === active);
    const next = items[(index + step + items.length) % items.length]!;
    onChange(next.key);
    document.getElementById(`login-tab-${next.key}`)?.focus();
  };
  return (
    <div className="login-tabs" role="tablist" onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          role="tab"
          id={`login-tab-${item.key}`}
          aria-selected={item.key === active}
          aria-controls="login-tabpanel"
          tabIndex={item.key === active ? 0 : -1}
          className={`login-tab${item.key === active ? ' login-tab-active' : ''}`}
          onClick={() => onChange(item.key)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
