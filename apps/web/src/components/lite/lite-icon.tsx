import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/lib/types';

function renderNode(node: AbstractNode, key: number) {
  const Tag = node.tag as 'g';
  return (
    <Tag key={key} {...node.attrs}>
      {node.children?.map(renderNode)}
    </Tag>
  );
}

/**
 * One of antd's icons (the same drawings, from @ant-design/icons-svg) without the icon
 * component's runtime: for the sign-in page and the first paint, which carry no antd.
 */
export function LiteIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const root = typeof icon.icon === 'function' ? icon.icon('currentColor', '#e6e6e6') : icon.icon;
  return (
    <span className={`anticon lite-icon${className ? ` ${className}` : ''}`} aria-hidden="true">
      <svg
        viewBox={root.attrs.viewBox}
        focusable="false"
        width="1em"
        height="1em"
        fill="currentColor"
      >
        {root.children?.map(renderNode)}
      </svg>
    </span>
  );
}
