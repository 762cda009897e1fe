import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';

/** One scrape of a metrics endpoint, parsed by a Prometheus text-format parser. */
export interface Scrape {
  families: ParsedFamily[];
  family(name: string): ParsedFamily | undefined;
  /** The samples of a series whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): ParsedSample[];
  /** Sum of the values (counter, gauge) or of the observation counts (histogram) of the matching samples; 0 when none. */
  value(name: string, labels?: Record<string, string>): number;
}

export async function scrape(url: string): Promise<Scrape> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`metrics answered ${res.status}`);
  if (!(res.headers.get('content-type') ?? '').startsWith('text/plain')) throw new Error(`metrics content type ${res.headers.get('content-type')}`);
  const text = await res.text();
  const families = parsePrometheusTextFormat(text);
  // The parser folds every series of a histogram into one sample and drops their labels, so
  // labelled histograms are read a second time with their TYPE lines left out: each
  // name_bucket, name_sum and name_count then comes back as its own family, labels kept.
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''));
  const family = (name: string) => families.find((f) => f.name === name);
  // prom-client writes each label set's buckets, sum and count together, so one name comes
  // back as several families.
  const seriesOf = (name: string) => series.filter((f) => f.name === name).flatMap((f) => f.metrics);
  const matches = (labels: Record<string, string>) => (m: ParsedSample) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v);
  const samples = (name: string, labels: Record<string, string> = {}): ParsedSample[] => {
    if (family(name)?.type !== 'HISTOGRAM') return (family(name)?.metrics ?? []).filter(matches(labels));
    const sums = seriesOf(`${name}_sum`);
    return seriesOf(`${name}_count`)
      .filter(matches(labels))
      .map((c) => ({ labels: c.labels, count: c.value, sum: sums.find((s) => JSON.stringify(s.labels) === JSON.stringify(c.labels))?.value }));
  };
  const value = (name: string, labels?: Record<string, string>) => samples(name, labels).reduce((sum, m) => sum + Number(m.value ?? m.count ?? 0), 0);
  return { families, family, samples, value };
}
