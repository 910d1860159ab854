import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * A deliberately tiny stand-in for `helm template` (no helm binary on H's build machines): the
 * chart's templates are written in a subset it renders exactly as Helm would —
 * `{{ .Values.a.b }}`, `{{ .Release.Name }}`, `{{ .Release.Namespace }}`, and a whole-file
 * `{{- if .Values.x }} … {{- end }}` guard. Anything else in `{{ }}` is an error, so a template
 * that leaves the subset fails the chart test instead of being rendered wrong.
 */
export interface RenderContext {
  values: Record<string, unknown>;
  release: { name: string; namespace: string };
}

function lookup(values: Record<string, unknown>, dotted: string): unknown {
  let v: unknown = values;
  for (const key of dotted.split('.')) {
    if (v === null || typeof v !== 'object' || !(key in v)) throw new Error(`.Values.${dotted} is not in the values`);
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

export function renderTemplate(text: string, ctx: RenderContext): string {
  const guard = /^\{\{-? if \.Values\.([\w.]+) -?\}\}\n([\s\S]*?)\{\{-? end -?\}\}\s*$/.exec(text);
  if (guard) {
    if (!lookup(ctx.values, guard[1])) return '';
    text = guard[2];
  }
  const out = text.replace(/\{\{-? *([^{}]*?) *-?\}\}/g, (_, expr: string) => {
    if (expr === '.Release.Name') return ctx.release.name;
    if (expr === '.Release.Namespace') return ctx.release.namespace;
    const m = /^\.Values\.([\w.]+)$/.exec(expr);
    if (!m) throw new Error(`"{{ ${expr} }}" is outside the chart's template subset (see deploy/helm/README.md)`);
    const v = lookup(ctx.values, m[1]);
    if (v !== null && typeof v === 'object') throw new Error(`.Values.${m[1]} is not a scalar`);
    return String(v);
  });
  return out;
}

/** Every object the chart renders for `values` (default: its values.yaml), with its template's name. */
export function renderChart(chartDir: string, overrides: (values: Record<string, unknown>) => void = () => undefined, release = { name: 'h', namespace: 'h' }): { template: string; object: Record<string, unknown> }[] {
  const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>;
  overrides(values);
  const objects: { template: string; object: Record<string, unknown> }[] = [];
  for (const file of readdirSync(join(chartDir, 'templates')).filter((f) => f.endsWith('.yaml')).sort()) {
    const text = renderTemplate(readFileSync(join(chartDir, 'templates', file), 'utf8'), { values, release });
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      const object = doc.toJS() as Record<string, unknown> | null;
      if (object) objects.push({ template: file, object });
    }
  }
  return objects;
}
