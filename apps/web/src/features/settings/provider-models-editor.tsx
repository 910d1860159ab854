'use client';

import type { ProviderModel } from '@h/contracts';
import { MODEL_CONTEXT_WINDOW_MIN, MODEL_ID_MAX_LENGTH } from '@h/contracts/providers';

/** One editable row: numbers as typed, so a half-typed price is not lost; parsed on save. */
export interface ModelRow {
  key: number;
  id: string;
  contextWindow: string;
  input: string;
  cacheHit: string;
  output: string;
}

let nextKey = 1;
export function rowFor(m: Partial<ProviderModel> & { id: string }): ModelRow {
  const p = m.price;
  return { key: nextKey++, id: m.id, contextWindow: m.contextWindow ? String(m.contextWindow) : '', input: p ? String(p.input) : '', cacheHit: p?.cacheHit !== undefined ? String(p.cacheHit) : '', output: p ? String(p.output) : '' };
}

/** The rows as the API takes them, or the first problem in words. */
export function modelsFrom(rows: ModelRow[]): ProviderModel[] | string {
  const out: ProviderModel[] = [];
  for (const r of rows) {
    const id = r.id.trim();
    if (!id) continue;
    const window = Number(r.contextWindow);
    if (!Number.isInteger(window) || window < MODEL_CONTEXT_WINDOW_MIN) return `Give ${id} a context window of at least ${MODEL_CONTEXT_WINDOW_MIN} tokens.`;
    const model: ProviderModel = { id, contextWindow: window };
    const priced = [r.input, r.cacheHit, r.output].some((v) => v.trim() !== '');
    if (priced) {
      const [input, output] = [Number(r.input || 'x'), Number(r.output || 'x')];
      if (!(input >= 0) || !(output >= 0)) return `Give ${id} both an input and an output price (USD per 1M tokens), or none.`;
      model.price = { input, output, ...(r.cacheHit.trim() !== '' && Number(r.cacheHit) >= 0 ? { cacheHit: Number(r.cacheHit) } : {}) };
    }
    out.push(model);
  }
  return out;
}

// The model list of a provider as a small table of inputs: id, window, and optional prices per
// 1M tokens (no price: the model costs nothing, like a self-hosted one).
export function ProviderModelsEditor({ idPrefix, rows, onChange }: { idPrefix: string; rows: ModelRow[]; onChange: (rows: ModelRow[]) => void }) {
  const set = (key: number, patch: Partial<ModelRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const cell = (r: ModelRow, field: keyof Omit<ModelRow, 'key'>, label: string, extra: { inputMode?: 'numeric' | 'decimal'; maxLength?: number } = {}) => (
    <td>
      <input aria-label={`${label} of model ${r.id || 'new'}`} className={field === 'id' ? 'mono' : undefined} value={r[field]} onChange={(e) => set(r.key, { [field]: e.target.value })} {...extra} />
    </td>
  );
  return (
    <fieldset className="provider-models" id={`${idPrefix}-models`}>
      <legend>Models</legend>
      {rows.length ? (
        <table className="table">
          <thead>
            <tr>
              <th>Model id</th>
              <th>Context window (tokens)</th>
              <th>Input $/1M</th>
              <th>Cache hit $/1M</th>
              <th>Output $/1M</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-testid="provider-model-row">
                {cell(r, 'id', 'Id', { maxLength: MODEL_ID_MAX_LENGTH })}
                {cell(r, 'contextWindow', 'Context window', { inputMode: 'numeric' })}
                {cell(r, 'input', 'Input price', { inputMode: 'decimal' })}
                {cell(r, 'cacheHit', 'Cache hit price', { inputMode: 'decimal' })}
                {cell(r, 'output', 'Output price', { inputMode: 'decimal' })}
                <td className="cell-actions">
                  <button type="button" className="button button-ghost button-small" onClick={() => onChange(rows.filter((x) => x.key !== r.key))}>
                    Remove {r.id || 'row'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No models yet: add them by hand{idPrefix === 'new-provider' ? '' : ', or fetch them from the provider'}.</p>
      )}
      <button type="button" className="button button-secondary button-small" onClick={() => onChange([...rows, rowFor({ id: '', contextWindow: 32768 })])}>
        Add a model
      </button>
    </fieldset>
  );
}
