import { createRequire } from 'node:module';

/** One family of the Prometheus text format, as parse-prometheus-text-format reads it (values are strings). */
export interface Family {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: Array<{
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }>;
}

// The package ships no types; its CommonJS build is loaded as it is.
const require = createRequire(import.meta.url);
const parse = require('parse-prometheus-text-format') as (text: string) => Family[];

/** A scrape, parsed by a Prometheus text-format parser, with look-ups by name and labels. */
export function parseMetrics(text: string) {
  const families = parse(text);
  // The package folds a histogram's label sets into one series; read as untyped, each of its
  // _bucket, _sum and _count lines keeps its labels.
  const plain = parse(text.replace(/^# TYPE (\S+) (histogram|summary)$/gm, '# TYPE $1 untyped'));
  const family = (name: string) => families.find((f) => f.name === name);
  const matching = (name: string, labels: Record<string, string> = {}) =>
    plain
      .filter((f) => f.name === name)
      .flatMap((f) => f.metrics)
      .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return {
    families,
    family,
    /** The value of a counter or gauge (summed over the series that match the labels); undefined when absent. */
    value(name: string, labels: Record<string, string> = {}): number | undefined {
      const found = matching(name, labels);
      return found.length ? found.reduce((n, m) => n + Number(m.value), 0) : undefined;
    },
    /** A histogram's observation count (summed over the matching series); undefined when absent. */
    count(name: string, labels: Record<string, string> = {}): number | undefined {
      const found = matching(`${name}_count`, labels);
      return found.length ? found.reduce((n, m) => n + Number(m.value), 0) : undefined;
    },
  };
}
