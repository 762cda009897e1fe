/**
 * The two sign-in tabs. A small tab strip of its own: antd's Tabs (with its overflow menu)
 * would add a fifth to the sign-in page's JavaScript.
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
  return (
    <div className="login-tabs" role="tablist">
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          role="tab"
          id={`login-tab-${item.key}`}
          aria-selected={item.key === active}
          className={`login-tab${item.key === active ? ' login-tab-active' : ''}`}
          onClick={() => onChange(item.key)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
