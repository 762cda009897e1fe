import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { withChunkTimeout } from '../../lib/lazy.ts';

export type ChartOption = EChartsCoreOption;

export interface ChartProps {
  option: ChartOption;
  height?: number;
  testId?: string;
  /** What the chart shows, for screen readers. */
  ariaLabel?: string;
}

const EChartCore = lazy(withChunkTimeout(() => import('./echart-core.tsx')));

/** An ECharts chart; ECharts itself loads on first use, in a chunk of its own. */
export function Chart(props: ChartProps) {
  const height = props.height ?? 280;
  return (
    <Suspense
      fallback={
        <Skeleton.Node active style={{ width: '100%', height }} className="chart-loading" />
      }
    >
      <EChartCore {...props} height={height} />
    </Suspense>
  );
}
